import { join } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { loadCachedDbFile, loadDbFile, readJsonFile } from '../../domains/load-db.js';
import { type ChosenDomain, chooseTau2Domain } from '../../domains/load-domain.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import { replayCalls } from '../../env/replay.js';
import type { Semantics } from '../../env/tool.js';
import { readTau2TasksFast } from '../../tasks/tau2-task-fast.js';
import { resolveTau2DomainDir } from '../../tau2/data-dir.js';

interface ReplayOptions {
  domain?: string;
  domainSpec?: string;
  tasks: string;
  ids?: string;
  db?: string;
  tau2Data?: string;
  semantics: string;
}

/** `cove replay`: replays each task's gold actions on a fresh episode and prints one JSON line per task. */
export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description("replay each task's gold actions on a fresh episode; print outputs, errors and state hashes")
    .option('--domain <name>', 'domain (default: told by the tasks)')
    .option(
      '--domain-spec <spec.json>',
      'a SQL domain spec (docs/sql-domains.md) instead of a built-in domain',
    )
    .requiredOption('--tasks <file>', 'τ² tasks.json (or a cove tasks file)')
    .option('--ids <list>', 'comma-separated task ids to replay (default: all)')
    .option('--db <file>', 'db.json to start from (default: the τ² data directory of the tasks file)')
    .option('--tau2-data <dir>', 'τ² data directory (default: $COVE_TAU2_DATA, else an ancestor of --tasks)')
    .option('--semantics <mode>', 'tool semantics: parity (τ² exactly) or fixed', 'parity')
    .action(async (options: ReplayOptions, self: Command) => {
      // a whole replay is mostly start-up: what a valid τ² tasks file replayed from the cache of bases does not
      // need (zod, the other domain, a db.json import, SQL domains, cove task files) is loaded only when used
      const value = readJsonFile(options.tasks);
      const tasks =
        readTau2TasksFast(value) ??
        (await import('../../tasks/tau2-task.js')).parseTau2Tasks(value, options.tasks);
      const spec =
        options.domainSpec === undefined
          ? undefined
          : (await import('../../domains/sql/load-spec.js')).loadSqlDomainFlag(options.domainSpec);
      if (spec !== undefined && options.domain !== undefined)
        throw new ConfigError('give either --domain or --domain-spec, not both');
      const chosen: ChosenDomain =
        spec === undefined
          ? await chooseTau2Domain(options.domain, tasks, options.tasks)
          : { environment: spec.domain, domain: async () => spec.domain };
      const domain = chosen.environment;
      if (options.semantics !== 'parity' && options.semantics !== 'fixed') {
        throw new ConfigError(`--semantics must be parity or fixed, not '${options.semantics}'`);
      }
      let base: EnvironmentBase;
      let semantics = options.semantics as Semantics;
      const coveInput = tasks.some((t) => (t.raw as Map<string, unknown>).has('cove'))
        ? await import('../tasks-input.js')
        : undefined;
      if (coveInput?.allCoveTasks(tasks) === true && options.tau2Data === undefined) {
        // tasks made by cove name their DB (a sandbox or a file) and are checked against its hash
        const input = coveInput.loadCoveTasks(await chosen.domain(), options.tasks, options.db);
        base = input.loaded.base;
        if (self.getOptionValueSource('semantics') !== 'cli') semantics = input.semantics;
        else if (semantics !== input.semantics) {
          process.stderr.write(
            `note: the tasks in ${options.tasks} were made under ${input.semantics}; replaying under ${semantics} as asked (gold actions may fail)\n`,
          );
        }
      } else {
        const dbFile =
          options.db ??
          join(
            resolveTau2DomainDir(domain.name, {
              explicit: options.tau2Data,
              fromEnv: process.env.COVE_TAU2_DATA,
              tasksFile: options.tasks,
            }),
            'db.json',
          );
        const pristine = { expectTau2Pristine: options.db === undefined };
        base = (
          loadCachedDbFile(domain, dbFile, pristine) ?? loadDbFile(await chosen.domain(), dbFile, pristine)
        ).base;
      }
      const wanted = options.ids?.split(',').map((s) => s.trim());
      if (wanted !== undefined) {
        const known = new Set(tasks.map((t) => t.task.id));
        if (wanted.some((id) => id === ''))
          throw new ConfigError(`--ids must be task ids separated by commas, not '${options.ids}'`);
        const missing = wanted.filter((id) => !known.has(id));
        if (missing.length > 0)
          throw new ConfigError(
            `--ids: no task with id ${missing.map((id) => `'${id}'`).join(', ')} in ${options.tasks}`,
          );
      }
      for (const { task } of tasks) {
        if (wanted !== undefined && !wanted.includes(task.id)) continue;
        const actions = task.evaluation_criteria?.actions ?? [];
        const { episode, calls } = replayCalls(
          base,
          actions.map((a) => ({ name: a.name, arguments: a.arguments })),
          { semantics },
        );
        const hashes = episode.hashes();
        episode.close();
        process.stdout.write(
          `${JSON.stringify({
            task_id: task.id,
            outputs: calls.map((c) => c.content),
            errors: calls.map((c) => c.error),
            db_hash: hashes.db_hash,
            canonical_sha256: hashes.canonical_sha256,
          })}\n`,
        );
      }
      base.close();
    });
}
