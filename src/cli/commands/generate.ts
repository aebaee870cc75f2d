import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { getDomain } from '../../domains/registry.js';
import { generate } from '../../run/generate.js';
import { scriptedRoles } from '../../run/scripted-roles.js';
import { agentContext, type TextSetting } from '../../sim/agent-context.js';
import { synthesizeTasks } from '../../tasks/synthesize-tasks.js';
import { resolveTau2DomainDir } from '../../tau2/data-dir.js';
import { COVE_VERSION } from '../../version.js';
import { chooseDb, intFlag } from '../db-source.js';
import { startProgress } from '../progress.js';
import { loadTasksForGenerate } from '../tasks-input.js';
import { reportLines, synthesisFlags } from './tasks.js';

interface GenerateFlags {
  domain: string;
  db?: string;
  sandboxSeed?: string;
  tasks?: string;
  n: string;
  seed: string;
  difficulty: string;
  fuzz: string;
  k?: string;
  semantics: string;
  text: string;
  agent: string;
  user: string;
  concurrency: string;
  attempts: string;
  out: string;
  tau2Data?: string;
  maxSteps: string;
  maxErrors: string;
  quiet?: boolean;
}

/** `cove generate`: the main job, from a DB (or tasks) to verified trajectories and SFT data. */
export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description('run episodes on synthesized tasks, verify them and write SFT data (the main job)')
    .option('--domain <name>', 'domain', 'retail')
    .option('--db <file>', 'db.json to synthesize tasks from (τ² data is labelled benchmark data)')
    .option('--sandbox-seed <n>', 'generate a sandbox DB with this seed (default: a sandbox with --seed)')
    .option('--tasks <file>', 'tasks made by `cove tasks` (their DB comes from the tasks, or --db)')
    .option('--n <count>', 'number of tasks to synthesize', '100')
    .option('--seed <n>', 'seed of everything random', '1')
    .option('--difficulty <level>', 'easy, medium, hard or mixed', 'mixed')
    .option('--fuzz <level>', '0 keeps ids, 1 fuzzifies some references, 2 all', '2')
    .option('--k <count>', 'exact number of constraints per task')
    .option('--semantics <mode>', 'tool semantics: parity (τ² exactly) or fixed', 'parity')
    .option(
      '--text <source>',
      "policy, prompts and tool texts: cove (cove's words) or tau2 (τ²'s files)",
      'cove',
    )
    .option('--agent <spec>', 'agent: oracle', 'oracle')
    .option('--user <spec>', 'user simulator: scripted', 'scripted')
    .option('--concurrency <n>', 'episodes running at once', '64')
    .option('--attempts <k>', 'episodes per task at most, stopping at the first that passes', '1')
    .option('--out <dir>', 'run folder (the same command resumes it)', 'runs/default')
    .option('--tau2-data <dir>', 'τ² data directory (for --text tau2)')
    .option('--max-steps <n>', 'steps before an episode ends with max_steps', '200')
    .option('--max-errors <n>', 'tool errors before an episode ends with too_many_errors', '10')
    .option('--quiet', 'no progress output')
    .action(async (flags: GenerateFlags) => {
      const domain = getDomain(flags.domain);
      if (domain.synthesis === undefined)
        throw new ConfigError(`domain ${domain.name} cannot synthesize tasks`);
      const parsed = synthesisFlags(flags);
      if (flags.text !== 'cove' && flags.text !== 'tau2')
        throw new ConfigError(`--text must be cove or tau2, not '${flags.text}'`);
      const text = flags.text as TextSetting;
      const seed = intFlag('--seed', flags.seed, 1);
      const n = intFlag('--n', flags.n, 100, 1);
      const k = flags.k === undefined ? undefined : intFlag('--k', flags.k, 1, 1);
      const concurrency = intFlag('--concurrency', flags.concurrency, 64, 1);
      const attempts = intFlag('--attempts', flags.attempts, 1, 1);
      const limits = {
        maxSteps: intFlag('--max-steps', flags.maxSteps, 200, 1),
        maxErrors: intFlag('--max-errors', flags.maxErrors, 10, 1),
        repeatedCallLimit: text === 'tau2' ? null : 5,
      };
      if (flags.agent !== 'oracle' || flags.user !== 'scripted') {
        throw new ConfigError(
          `unknown role spec: --agent ${flags.agent} --user ${flags.user} (use oracle / scripted)`,
        );
      }
      const roles = scriptedRoles(domain);
      const tau2Dir =
        text === 'tau2'
          ? resolveTau2DomainDir(domain.name, {
              explicit: flags.tau2Data,
              fromEnv: process.env.COVE_TAU2_DATA,
              tasksFile: flags.tasks ?? flags.db,
            })
          : undefined;
      const context = agentContext(domain, text, tau2Dir);
      const quiet = flags.quiet === true;

      let setup: {
        base: ReturnType<typeof chooseDb>['loaded'];
        tasks: import('../../tasks/cove-task.js').CoveTask[];
        sandboxText?: string;
        sourceId: string;
      };
      if (flags.tasks !== undefined) {
        if (flags.sandboxSeed !== undefined)
          throw new ConfigError('give either --tasks or --sandbox-seed, not both');
        const input = loadTasksForGenerate(domain, flags.tasks, flags.db);
        setup = {
          base: input.loaded,
          tasks: input.tasks,
          sourceId: `tasks:${sha256Hex(readFileSync(flags.tasks, 'utf8')).slice(0, 16)}`,
        };
        if (input.sandboxText !== undefined) setup.sandboxText = input.sandboxText;
      } else {
        const sandboxSeed =
          flags.db === undefined ? intFlag('--sandbox-seed', flags.sandboxSeed, seed) : undefined;
        const choice = chooseDb(domain, { db: flags.db, sandboxSeed });
        const progress = startProgress('tasks', n, { quiet });
        const result = synthesizeTasks(
          domain.synthesis,
          choice.loaded.base,
          {
            domain: domain.name,
            seed,
            ...parsed,
            ...(k === undefined ? {} : { k }),
            db: choice.source,
            coveVersion: COVE_VERSION,
          },
          n,
          (done) => progress.update(done),
        );
        progress.stop();
        if (!quiet) for (const line of reportLines(result.report)) process.stderr.write(`${line}\n`);
        if (result.problems.length > 0)
          throw new ConfigError(`task synthesis found problems: ${result.problems.slice(0, 5).join('; ')}`);
        setup = {
          base: choice.loaded,
          tasks: result.tasks,
          sourceId:
            flags.db === undefined ? `sandbox:${sandboxSeed}` : `db:${choice.loaded.hashes.canonical_sha256}`,
        };
        if (choice.sandboxText !== undefined) setup.sandboxText = choice.sandboxText;
      }

      const out = resolve(flags.out);
      const settings = {
        semantics: parsed.semantics,
        text,
        guidelines: roles.userName === 'scripted' ? 'scripted' : text,
      };
      const progress = startProgress('episodes', setup.tasks.length, { quiet });
      let interrupted = false;
      const onSignal = () => {
        interrupted = true;
        process.stderr.write('\nstopping: finishing the episodes under way (Ctrl-C again to abort)\n');
        process.once('SIGINT', () => process.exit(130));
      };
      process.once('SIGINT', onSignal);
      const result = await generate({
        domain,
        out,
        runName: basename(out),
        command: process.argv.slice(2),
        coveVersion: COVE_VERSION,
        seed,
        base: setup.base.base,
        dbSha256: setup.base.hashes.canonical_sha256,
        benchmarkData: setup.base.isTau2Benchmark,
        tasks: setup.tasks,
        tasksText: `${JSON.stringify(setup.tasks, null, 2)}\n`,
        ...(setup.sandboxText === undefined ? {} : { sandboxText: setup.sandboxText }),
        settings,
        agentContext: context,
        roles,
        limits,
        concurrency,
        attempts,
        fingerprint: {
          domain: domain.name,
          source: setup.sourceId,
          seed,
          difficulty: parsed.difficulty,
          fuzz: parsed.fuzz,
          k: k ?? null,
          semantics: parsed.semantics,
          text,
          agent: roles.agentName,
          user: roles.userName,
        },
        onProgress: (done, _total, kept) => progress.update(done, `passed ${kept}`),
        shouldStop: () => interrupted,
      });
      process.removeListener('SIGINT', onSignal);
      progress.stop();
      setup.base.base.close();
      const s = result.summary;
      process.stderr.write(
        `${result.resumed ? 'resumed' : 'wrote'} ${out}: ${s.episodes} episodes (${result.newEpisodes} new), ` +
          `${s.sft_trajectories} SFT trajectories, task yield ${(s.task_yield * 100).toFixed(1)}%, ` +
          `mean score ${s.mean_score}, leaks ${s.leaks}\n`,
      );
      if (interrupted) process.exitCode = 130;
    });
}
