import { spawnSync } from 'node:child_process';
import { BIN } from './cli.js';

/**
 * How the tests get a real EACCES. Permission bits do not stop root, and the tests run as root on this project's
 * machines and in CI, so a folder made read-only with chmod is still writable to a CLI started as root. Under
 * root the CLI is started through `setpriv` as uid/gid 65534 (`nobody`), for which a root-owned folder of mode 0555
 * is really not writable. Under any other user the CLI runs as is and chmod alone does it.
 *
 * `prefix` is the command to put before `node bin/cove.js`; `skip` says why neither works here (e.g. no setpriv,
 * or the repository is in a folder `nobody` may not read), so that a test skips with that reason.
 */
export const UNPRIVILEGED: { readonly prefix: readonly string[] } | { readonly skip: string } = (() => {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const prefix = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  const probe = spawnSync(prefix[0] as string, [...prefix.slice(1), process.execPath, BIN, '--version'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (probe.error !== undefined) {
    return { skip: `running as root and setpriv is not available (${probe.error.message})` };
  }
  if (probe.status !== 0) {
    return {
      skip: `running as root and uid 65534 cannot run the CLI here (${probe.stderr.trim().split('\n')[0] ?? probe.status})`,
    };
  }
  return { prefix };
})();
