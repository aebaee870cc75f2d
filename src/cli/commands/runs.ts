import { resolve } from 'node:path';
import type { Command } from 'commander';

interface StatusFlags {
  queue: string;
  run: string;
  queuePrefix: string;
  json?: boolean;
}

interface ExportFlags {
  store: string;
  run: string;
  out: string;
}

function duration(s: number | null): string {
  if (s === null) return 'unknown (nothing finished in the last minute)';
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** `cove runs status` and `cove runs export`: distributed runs (docs/distributed.md). */
export function registerRuns(program: Command): void {
  const runs = program
    .command('runs')
    .description(
      'run folders side by side (compare); distributed runs: progress on the queue, export from the store',
    );
  runs
    .command('compare')
    .description(
      'run folders side by side: yield, turns, tool calls, tokens and cost per run (e.g. the three modes of docs/modes.md)',
    )
    .argument('<runs...>', 'run folders of `cove generate`, each DIR or LABEL=DIR')
    .option('--json', 'print the rows as JSON')
    .action(async (entries: string[], flags: { json?: boolean }) => {
      const { compareRuns, comparisonTable } = await import('../../run/compare-runs.js');
      const rows = compareRuns(entries);
      process.stdout.write(
        flags.json === true ? `${JSON.stringify(rows, null, 2)}\n` : comparisonTable(rows),
      );
    });
  runs
    .command('status')
    .description("a run's jobs on the queue: waiting, active, done, failed, throughput and ETA")
    .requiredOption('--queue <url>', 'Redis of the queue (redis://host:port)')
    .requiredOption('--run <id>', 'run id (printed by `cove generate --queue`)')
    .option('--queue-prefix <name>', 'key prefix of the queues and the run registry', 'cove')
    .option('--json', 'print the status as JSON')
    .action(async (flags: StatusFlags) => {
      const { runStatus } = await import('../../queue/run-status.js'); // BullMQ only when asked for
      const s = await runStatus(flags.queue, flags.queuePrefix, flags.run);
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
        return;
      }
      const lines = [
        `run ${s.run}${s.registered ? ` (registered, cove ${s.cove_version})` : ' (not registered: finished or not started)'}`,
        `waiting ${s.waiting}, active ${s.active}, retrying ${s.delayed}, done ${s.done}, failed ${s.failed}`,
        `throughput ${s.episodes_per_s} episodes/s over the last minute, ETA ${duration(s.eta_s)}`,
        ...s.failures.map((f) => `failed ${f.job} after ${f.tries} tries: ${f.reason}`),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    });
  runs
    .command('export')
    .description("write a stored run's folder (trajectories.jsonl, sft.jsonl, summary.json) from PostgreSQL")
    .requiredOption('--store <url>', 'PostgreSQL of the run (postgres://…)')
    .requiredOption('--run <id>', 'run id (printed by `cove generate --queue`)')
    .requiredOption('--out <dir>', 'folder to write')
    .action(async (flags: ExportFlags) => {
      const out = resolve(flags.out);
      const { exportRun } = await import('../../queue/export-run.js'); // pg only when asked for
      const r = await exportRun(flags.store, flags.run, out);
      process.stderr.write(
        `wrote ${out}: ${r.records} episodes, ${r.sft} SFT trajectories (run status: ${r.status})\n`,
      );
    });
}
