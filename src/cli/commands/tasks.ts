import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { ConfigError } from '../../core/errors.js';
import { chooseDomain, domainOfDbValue } from '../../domains/infer-domain.js';
import { readJsonFile } from '../../domains/load-db.js';
import { domainNames } from '../../domains/registry.js';
import { loadSqlDomainFlag } from '../../domains/sql/load-spec.js';
import type { QualityReport } from '../../tasks/quality-report.js';
import { taskMix } from '../../tasks/sampler.js';
import { synthesizeTasks } from '../../tasks/synthesize-tasks.js';
import { COVE_VERSION } from '../../version.js';
import { chooseDb, intFlag, MAX_SEED, MAX_TASKS } from '../db-source.js';
import { prepareOutputFile } from '../output-paths.js';
import { startProgress } from '../progress.js';
import { goalFlags, synthesisFlags, withSynthesisOptions } from '../synthesis-flags.js';

interface TasksFlags {
  domain?: string;
  domainSpec?: string;
  db?: string;
  sandboxSeed?: string;
  n: string;
  seed: string;
  difficulty: string;
  mix: string;
  fuzz: string;
  k?: string;
  goals?: string;
  semantics: string;
  out: string;
}

/** A report as a few readable lines. */
export function reportLines(report: QualityReport): string[] {
  const fmt = (counts: Record<string, number>) =>
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  return [
    `tasks: ${report.tasks}${report.benchmark_data ? ' (made from τ² benchmark data)' : ''}`,
    `by kind: ${fmt(report.by_kind)}`,
    `by k: ${fmt(report.by_k)}; by difficulty: ${fmt(report.by_difficulty)}`,
    `by strategy: ${fmt(report.by_strategy)}`,
    `uniqueness violations: ${report.uniqueness_violations}; solvability: ${(report.solvability * 100).toFixed(1)}%`,
    `coverage: ${report.coverage.covered}/${report.coverage.cells} kind×k×strategy cells (${(report.coverage.share * 100).toFixed(1)}%)`,
    ...(report.null_policy === undefined
      ? []
      : [
          `null policies (${report.null_policy.policies.join(', ')}): reward 0 on all ${report.null_policy.tasks_checked} tasks; ` +
            `${report.null_policy.rejected_draws} draws they passed were redrawn (${fmt(report.null_policy.rejected_by)})`,
        ]),
  ];
}

/** `cove tasks`: synthesizes CoVe tasks and writes them with a quality report beside them. */
export function registerTasks(program: Command): void {
  const command = program
    .command('tasks')
    .description('synthesize verified CoVe tasks (constraints + fuzzy descriptions) from a DB')
    .option('--domain <name>', `domain (${domainNames().join(', ')}; told by --db when given)`)
    .option(
      '--domain-spec <spec.json>',
      'a SQL domain spec (docs/sql-domains.md) instead of a built-in domain',
    )
    .option(
      '--db <file>',
      "db.json to sample from (τ² data is labelled benchmark data; with --domain-spec a SQLite file, default the spec's own)",
    )
    .option('--sandbox-seed <n>', 'generate a sandbox DB with this seed instead')
    .option('--n <count>', 'number of tasks', '500')
    .option('--seed <n>', 'seed of the task draws', '1')
    .requiredOption('--out <file>', 'tasks.json to write');
  withSynthesisOptions(command).action(async (flags: TasksFlags, self: Command) => {
    const spec = loadSqlDomainFlag(flags.domainSpec, undefined, (w) => process.stderr.write(w));
    if (spec !== undefined && flags.domain !== undefined)
      throw new ConfigError('give either --domain or --domain-spec, not both');
    const domain =
      spec?.domain ??
      chooseDomain(
        flags.domain,
        flags.db === undefined ? undefined : domainOfDbValue(readJsonFile(flags.db)),
        flags.db === undefined ? {} : { input: flags.db },
      );
    if (domain.synthesis === undefined)
      throw new ConfigError(`domain ${domain.name} cannot synthesize tasks`);
    const { mix, ...parsed } = synthesisFlags(flags);
    taskMix(domain.synthesis, mix);
    const n = intFlag('--n', flags.n, 500, 1, MAX_TASKS);
    const seed = intFlag('--seed', flags.seed, 1, 0, MAX_SEED);
    const { k, goals } = goalFlags(flags, self.getOptionValueSource('difficulty') === 'cli');
    const sandboxSeed =
      flags.sandboxSeed === undefined
        ? undefined
        : intFlag('--sandbox-seed', flags.sandboxSeed, 0, 0, MAX_SEED);
    prepareOutputFile('--out', flags.out);
    const reportFile = join(dirname(flags.out), `${basename(flags.out).replace(/\.json$/, '')}.report.json`);
    prepareOutputFile('--out (its report)', reportFile);
    const choice = chooseDb(domain, {
      db: flags.db ?? (sandboxSeed === undefined ? spec?.dbFile : undefined),
      sandboxSeed,
      pathBase: dirname(resolve(flags.out)),
    });
    const progress = startProgress('tasks', n);
    const result = await synthesizeTasks(
      domain,
      choice.loaded.base,
      {
        domain: domain.name,
        seed,
        ...parsed,
        ...(k === undefined ? {} : { k }),
        ...(goals === undefined ? {} : { goals }),
        ...(mix === 'uniform' ? {} : { mix }),
        db: choice.source,
        coveVersion: COVE_VERSION,
      },
      n,
      (done) => progress.update(done),
    );
    progress.stop();
    choice.loaded.base.close();
    writeFileAtomic(flags.out, `${JSON.stringify(result.tasks, null, 2)}\n`);
    writeFileAtomic(reportFile, `${JSON.stringify(result.report, null, 2)}\n`);
    for (const line of reportLines(result.report)) process.stderr.write(`${line}\n`);
    process.stderr.write(`wrote ${flags.out} and ${reportFile}\n`);
    if (result.problems.length > 0) {
      for (const p of result.problems.slice(0, 20)) process.stderr.write(`problem: ${p}\n`);
      process.exitCode = 1;
    }
  });
}
