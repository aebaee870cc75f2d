import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { serveApp } from '../../server/serve.js';
import { createViewApp } from '../../view/app.js';
import { loadPageAssets } from '../../view/assets.js';
import { openSource } from '../../view/open-source.js';
import { intFlag } from '../db-source.js';

interface ViewFlags {
  port: string;
  host: string;
  tau2Data?: string;
}

const LOOPBACK = /^(localhost|::1|127\.\d+\.\d+\.\d+)$/;

/** `cove view`: a local web page over one run (or two, compared), a trajectories file or τ² results. */
export function registerView(program: Command): void {
  program
    .command('view')
    .description(
      'see a run folder, a trajectories.jsonl or a τ² results.json in the browser (two runs: compare them)',
    )
    .argument('<source>', 'run folder, trajectories.jsonl or τ² results.json')
    .argument('[other]', 'a second run over the same tasks, shown side by side')
    .option('--port <n>', 'port (0: a free one)', '8790')
    .option('--host <address>', 'address to bind (keep it on this machine)', '127.0.0.1')
    .option('--tau2-data <dir>', 'τ² data directory, for the state diffs of a results.json')
    .action(async (first: string, second: string | undefined, flags: ViewFlags) => {
      const port = intFlag('--port', flags.port, 8790);
      const tau2Data = flags.tau2Data ?? process.env.COVE_TAU2_DATA;
      const sources = [first, ...(second === undefined ? [] : [second])].map((p) => openSource(p, tau2Data));
      let assets: ReturnType<typeof loadPageAssets>;
      try {
        assets = loadPageAssets();
      } catch (e) {
        throw new ConfigError((e as Error).message);
      }
      const loopback = LOOPBACK.test(flags.host);
      if (!loopback) {
        process.stderr.write(
          `warning: --host ${flags.host} shows these trajectories (no authentication) to other machines\n`,
        );
      }
      const app = createViewApp({
        sources,
        assets,
        allowedHosts: loopback ? ['localhost', '127.0.0.1', '[::1]', flags.host] : [],
      });
      const server = await serveApp(app, { port, host: flags.host }).catch((e: NodeJS.ErrnoException) => {
        throw new ConfigError(
          e.code === 'EADDRINUSE'
            ? `port ${port} on ${flags.host} is in use; pick another --port (0: any free one)`
            : `cannot listen on ${flags.host}:${port}: ${e.message}`,
        );
      });
      process.stdout.write(`${server.url}/\n`);
      process.stderr.write(
        `cove view: open ${server.url}/ in a browser (${sources.map((s) => s.path).join(' vs ')}); Ctrl-C stops it\n`,
      );
      for (const s of sources) {
        s.ready().then(
          () =>
            process.stderr.write(
              `cove view: ${s.label}: ${s.facts().length} episodes, ${s.malformed().length} malformed\n`,
            ),
          (e: Error) => process.stderr.write(`cove view: ${s.path}: ${e.message}\n`),
        );
      }
      await new Promise<void>((done) => {
        const stop = () => void server.close().then(done);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
