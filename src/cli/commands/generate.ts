import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { agentContext, type TextSetting } from '../../domains/agent-context.js';
import { chooseDomain, domainOfDbValue, domainOfTasks } from '../../domains/infer-domain.js';
import { readJsonFile } from '../../domains/load-db.js';
import { loadSqlDomainFlag } from '../../domains/sql/load-spec.js';
import { ChatModel } from '../../llm/chat-model.js';
import { createRoleFactory } from '../../run/roles.js';
import { type GenerateRunOptions, runGenerate } from '../../run/run-generate.js';
import { generateFingerprint } from '../../run/run-identity.js';
import { JSON_USER_GUIDELINES_LABEL } from '../../sim/model-user/json-user-prompt.js';
import { readPrefixFile } from '../../sim/prefix/prefix-file.js';
import { COVE_USER_GUIDELINES, guidelinesLabel, tau2UserGuidelines } from '../../sim/user-guidelines.js';
import { isDescriptiveTasksFile } from '../../synth/descriptive/descriptive-task.js';
import { parseTau2Tasks } from '../../tasks/tau2-task.js';
import { resolveTau2DomainDir, tau2Root } from '../../tau2/data-dir.js';
import { COVE_VERSION } from '../../version.js';
import { intFlag, MAX_SEED, MAX_TASKS } from '../db-source.js';
import { checkDescriptiveRun, descriptiveTaskSource } from '../descriptive-input.js';
import { type TaskFlags, taskSource } from '../generate-setup.js';
import { prepareOutputDir } from '../output-paths.js';
import { startProgress } from '../progress.js';
import { type RoleFlags, resolveRoles, withRoleOptions } from '../role-flags.js';
import { goalFlags, synthesisFlags, withSynthesisOptions } from '../synthesis-flags.js';
import { allCoveTasks } from '../tasks-input.js';

interface GenerateFlags extends TaskFlags, RoleFlags {
  domain?: string;
  domainSpec?: string;
  n?: string;
  seed: string;
  difficulty: string;
  mix: string;
  fuzz: string;
  k?: string;
  goals?: string;
  semantics: string;
  text: string;
  concurrency: string;
  attempts: string;
  targetSft?: string;
  out: string;
  tau2Data?: string;
  maxSteps: string;
  maxErrors: string;
  quiet?: boolean;
  queue?: string;
  store?: string;
  queuePrefix: string;
  from?: string;
}

const TAU2_TASKS_NEED_MODELS = (file: string) =>
  `${file} holds τ²'s own tasks (no cove block): the oracle agent and the scripted user need tasks ` +
  "made by `cove tasks`; run τ² tasks with --agent openai:<model> and --user openai:<model> (graded by τ²'s evaluator)";

/** `cove generate`: the main job, from a DB (or tasks) to verified trajectories and SFT data. */
export function registerGenerate(program: Command): void {
  const command = program
    .command('generate')
    .description('run episodes on synthesized tasks, verify them and write SFT data (the main job)')
    .option('--domain <name>', 'domain (default: told by --tasks or --db, else retail)')
    .option(
      '--domain-spec <spec.json>',
      'a SQL domain spec (docs/sql-domains.md) instead of a built-in domain',
    )
    .option('--db <file>', 'db.json to synthesize tasks from (τ² data is labelled benchmark data)')
    .option('--sandbox-seed <n>', 'generate a sandbox DB with this seed (default: a sandbox with --seed)')
    .option(
      '--tasks <file>',
      'tasks made by `cove tasks` (their DB comes from the tasks, or --db), or τ² tasks (graded by τ²; model roles only)',
    )
    .option(
      '--from <conversations.jsonl>',
      'continue conversations: lines {id, messages} (OpenAI chat shape), paired with tasks round-robin; their tool calls are replayed first',
    )
    .option('--n <count>', 'number of tasks (default: 100, or every task of --tasks)')
    .option('--seed <n>', 'seed of everything random', '1')
    .option(
      '--text <source>',
      "policy, prompts and tool texts: cove (cove's words) or tau2 (τ²'s files)",
      'cove',
    )
    .option('--config <file>', 'cove.json with roles, prices and budget (see the README)')
    .option('--budget-usd <amount>', 'stop starting episodes once model calls cost this much')
    .option('--budget-tokens <count>', 'stop starting episodes once model calls used this many tokens')
    .option('--concurrency <n>', 'episodes running at once', '64')
    .option('--attempts <k>', 'episodes per task at most, stopping at the first that passes', '1')
    .option('--target-sft <n>', 'keep adding tasks until this many trajectories pass')
    .option('--out <dir>', 'run folder (the same command resumes it)', 'runs/default')
    .option('--tau2-data <dir>', 'τ² data directory (for --text tau2)')
    .option('--max-steps <n>', 'steps before an episode ends with max_steps', '200')
    .option('--max-errors <n>', 'tool errors before an episode ends with too_many_errors', '10')
    .option('--quiet', 'no progress output')
    .option('--queue <url>', 'run the episodes on `cove worker`s through this Redis (redis://host:port)')
    .option('--store <url>', 'with --queue: workers store records in this PostgreSQL (postgres://…)')
    .option('--queue-prefix <name>', 'with --queue: key prefix of the queues and the run registry', 'cove');
  withSynthesisOptions(withRoleOptions(command)).action(async (flags: GenerateFlags, self: Command) => {
    if (flags.from !== undefined && flags.queue !== undefined)
      throw new ConfigError(
        '--queue cannot run --from yet: workers rebuild a run from its registered definition, which holds no conversations; run it in one process (without --queue)',
      );
    if (flags.from !== undefined && flags.tasks !== undefined)
      throw new ConfigError(
        '--from cannot be used with --tasks: the tasks of a --from run are drawn from the state after each conversation',
      );
    const spec = loadSqlDomainFlag(flags.domainSpec, undefined, (w) => process.stderr.write(w));
    if (spec !== undefined && flags.domain !== undefined)
      throw new ConfigError('give either --domain or --domain-spec, not both');
    if (spec !== undefined && flags.queue !== undefined)
      throw new ConfigError(
        '--queue cannot run a --domain-spec domain yet: workers rebuild a run from its registered definition, which holds built-in domains only; run it in one process (without --queue)',
      );
    // a spec names its own database: without --db or --tasks, tasks are drawn from it
    if (
      spec !== undefined &&
      flags.db === undefined &&
      flags.tasks === undefined &&
      flags.sandboxSeed === undefined
    )
      flags.db = spec.dbFile;
    // descriptive tasks (JSON Lines from `cove synth tasks`): judged, never CoVe-scored (docs/descriptive-tasks.md)
    const descriptive = flags.tasks !== undefined && isDescriptiveTasksFile(flags.tasks);
    const domain =
      spec?.domain ??
      chooseDomain(
        flags.domain,
        flags.tasks !== undefined && !descriptive
          ? domainOfTasks(parseTau2Tasks(readJsonFile(flags.tasks), flags.tasks), flags.tasks)
          : flags.db !== undefined && spec === undefined
            ? domainOfDbValue(readJsonFile(flags.db))
            : undefined,
        { input: flags.tasks ?? flags.db, fallback: 'retail' },
      );
    const parsed = synthesisFlags(flags);
    if (flags.tasks !== undefined) {
      // these decide how tasks are synthesized; a tasks file's tasks are already made
      const ignored = ['difficulty', 'fuzz', 'k', 'goals', 'mix'].filter(
        (o) => self.getOptionValueSource(o) === 'cli',
      );
      if (ignored.length > 0) {
        throw new ConfigError(
          `${ignored.map((o) => `--${o}`).join(', ')} cannot be used with --tasks: the tasks in ${flags.tasks} are already made (their settings are in each task's cove block)`,
        );
      }
    }
    const from = flags.from === undefined ? undefined : readPrefixFile(flags.from);
    if (flags.store !== undefined && flags.queue === undefined) {
      throw new ConfigError('--store needs --queue: only distributed runs keep their records in PostgreSQL');
    }
    prepareOutputDir('--out', resolve(flags.out));
    if (flags.text !== 'cove' && flags.text !== 'tau2')
      throw new ConfigError(`--text must be cove or tau2, not '${flags.text}'`);
    const text = flags.text as TextSetting;
    const seed = intFlag('--seed', flags.seed, 1, 0, MAX_SEED);
    const n = intFlag('--n', flags.n, flags.tasks === undefined ? 100 : MAX_TASKS, 1, MAX_TASKS);
    const { k, goals } = goalFlags(flags, self.getOptionValueSource('difficulty') === 'cli');
    const concurrency = intFlag('--concurrency', flags.concurrency, 64, 1, 4096);
    const attempts = intFlag('--attempts', flags.attempts, 1, 1, 100);
    const targetSft =
      flags.targetSft === undefined ? undefined : intFlag('--target-sft', flags.targetSft, 1, 1, MAX_TASKS);
    const limits = {
      maxSteps: intFlag('--max-steps', flags.maxSteps, 200, 1),
      maxErrors: intFlag('--max-errors', flags.maxErrors, 10, 1),
      repeatedCallLimit: text === 'tau2' ? null : 5,
    };
    const roles = resolveRoles(flags, process.env);
    checkDescriptiveRun(descriptive, flags, roles, (note) => process.stderr.write(note));
    if (roles.choice.tools !== undefined && flags.queue !== undefined)
      throw new ConfigError(
        '--queue cannot run --tool-outputs model yet: workers rebuild the roles of a run from its registered definition, which has no tool model; run it in one process (without --queue)',
      );
    const tau2Dir =
      text === 'tau2'
        ? resolveTau2DomainDir(domain.name, {
            explicit: flags.tau2Data,
            fromEnv: process.env.COVE_TAU2_DATA,
            tasksFile: flags.tasks ?? flags.db,
          })
        : undefined;
    const context = agentContext(domain, text, tau2Dir);
    const userGuidelines =
      tau2Dir === undefined ? COVE_USER_GUIDELINES : tau2UserGuidelines(tau2Root(tau2Dir));
    const factory = createRoleFactory(domain, roles.choice, {
      agentContext: context,
      userGuidelines,
      models: roles.models,
    });
    const out = resolve(flags.out);
    if (
      flags.tasks !== undefined &&
      !descriptive &&
      parseTau2Tasks(readJsonFile(flags.tasks), flags.tasks).length > 0 && // an empty file: 'no tasks' below
      !allCoveTasks(parseTau2Tasks(readJsonFile(flags.tasks), flags.tasks)) &&
      (roles.choice.agent === 'oracle' || roles.choice.user === 'scripted')
    ) {
      throw new ConfigError(TAU2_TASKS_NEED_MODELS(flags.tasks));
    }
    const source = descriptive
      ? descriptiveTaskSource(domain, String(flags.tasks), {
          db: flags.db ?? spec?.dbFile,
          semantics: parsed.semantics,
        })
      : taskSource(domain, flags, {
          seed,
          ...parsed,
          ...(k === undefined ? {} : { k }),
          ...(goals === undefined ? {} : { goals }),
          out,
          ...(from === undefined ? {} : { from }),
        });
    if (!source.cove && (roles.choice.agent === 'oracle' || roles.choice.user === 'scripted')) {
      source.loaded.base.close();
      throw new ConfigError(TAU2_TASKS_NEED_MODELS(String(flags.tasks)));
    }
    if (
      flags.tasks !== undefined &&
      !descriptive &&
      self.getOptionValueSource('semantics') === 'cli' &&
      parsed.semantics !== source.semantics
    ) {
      throw new ConfigError(
        `--semantics ${parsed.semantics}: the tasks in ${flags.tasks} were made under ${source.semantics}`,
      );
    }
    // a tasks file decides the semantics (its gold states were proven under it)
    const semantics = source.semantics;
    if (flags.n !== undefined && !source.open) {
      const held = (await source.tasks(MAX_TASKS)).length;
      if (held < n) {
        process.stderr.write(
          `note: --n ${n}, but ${flags.tasks} holds ${held} task(s): running all ${held}\n`,
        );
      }
    }
    if (targetSft !== undefined && !source.open && flags.tasks !== undefined) {
      process.stderr.write('note: --target-sft with --tasks can only use the tasks in the file\n');
    }
    const quiet = flags.quiet === true;
    const settings = {
      semantics,
      text,
      guidelines:
        factory.userName === 'scripted'
          ? 'scripted'
          : factory.userStyle === 'json'
            ? JSON_USER_GUIDELINES_LABEL
            : guidelinesLabel(text),
    };
    let interrupted = false;
    const onSignal = () => {
      interrupted = true;
      process.stderr.write('\nstopping: finishing the episodes under way (Ctrl-C again to abort)\n');
      process.once('SIGINT', () => process.exit(130));
    };
    process.once('SIGINT', onSignal);

    const fingerprint = generateFingerprint({
      domain: domain.name,
      source: source.sourceId,
      seed,
      ...(flags.tasks === undefined
        ? {
            synthesis: {
              difficulty: parsed.difficulty,
              fuzz: parsed.fuzz,
              ...(k === undefined ? {} : { k }),
              ...(goals === undefined ? {} : { goals }),
              mix: parsed.mix,
            },
          }
        : {}),
      semantics,
      text,
      agent: factory.agentName,
      user: factory.userName,
      ...(factory.userStyle === undefined ? {} : { userStyle: factory.userStyle }),
      ...(roles.judge === undefined ? {} : { judge: roles.judge.model }),
      ...(from === undefined ? {} : { from: from.sha256 }),
      ...(factory.toolOutputs === undefined
        ? {}
        : { toolOutputs: 'model', toolModel: factory.toolOutputs.name }),
    });
    const runOptions: GenerateRunOptions = {
      domain,
      source,
      out,
      seed,
      n,
      settings,
      agentContext: context,
      roles: factory,
      ...(roles.judge === undefined ? {} : { judge: new ChatModel('judge', roles.judge, roles.models) }),
      limits,
      concurrency,
      attempts,
      ...(targetSft === undefined ? {} : { targetSft }),
      ...(flags.allowSimulatedTools === true ? { sft: { allowSimulatedTools: true } } : {}),
      fingerprint,
      coveVersion: COVE_VERSION,
      command: process.argv.slice(2),
      meter: roles.meter,
      shouldStop: () => interrupted || roles.meter.exhausted(),
      startPhase: (phase, total) => startProgress(phase, total, { quiet }),
      onWarning: (message: string) => process.stderr.write(`warning: ${message}\n`),
      ...(source.prefixes === undefined ? {} : { prefixes: source.prefixes }),
    };
    const result =
      flags.queue === undefined
        ? await runGenerate(runOptions)
        : await (await import('../../queue/coordinator.js')).runDistributed(runOptions, {
            queueUrl: flags.queue,
            ...(flags.store === undefined ? {} : { storeUrl: flags.store }),
            prefix: flags.queuePrefix,
            roles: roles.choice,
            userGuidelines,
            prices: roles.config.prices,
            onRegistered: (id) =>
              process.stderr.write(
                `run ${id} registered on the queue: start \`cove worker --queue …\` anywhere; progress: cove runs status --run ${id}\n`,
              ),
          });
    const {
      resumed,
      newEpisodes,
      newInfrastructureErrors,
      stoppedEarly,
      taskCount,
      notRun: failedJobs,
    } = result;
    if (result.summary === undefined) {
      process.removeListener('SIGINT', onSignal);
      source.prefixes?.close();
      source.loaded.base.close();
      process.stderr.write('stopped while synthesizing tasks; nothing was run\n');
      process.exitCode = 130;
      return;
    }
    process.removeListener('SIGINT', onSignal);
    source.prefixes?.close();
    source.loaded.base.close();
    const s = result.summary;
    const budget = roles.meter.exhausted() ? ' (budget reached: no new episodes were started)' : '';
    const lost = s.infrastructure_failures.episodes;
    const graded = lost > 0 ? ` (${s.graded_episodes} graded, ${lost} lost to infrastructure failures)` : '';
    process.stderr.write(
      `${resumed === true ? 'resumed' : 'wrote'} ${out}: ${s.episodes} episodes${graded} (${newEpisodes} new), ` +
        (s.graded_episodes === 0
          ? 'no episode graded (no yield or score to report)'
          : `${s.sft_trajectories} SFT trajectories, task yield ${(s.task_yield * 100).toFixed(1)}%, ` +
            `${s.verification_meaningful === false ? 'tool outputs played by a model (verification not meaningful: the state never changed)' : source.cove ? `mean score ${s.mean_score}` : s.judge !== undefined ? `judged: ${s.judge.passed} passed, ${s.judge.rejected_by_judge} rejected by the judge, ${s.judge.deterministic_failures} failed a deterministic check, ${s.judge.not_judged} not judged` : `mean τ² reward ${s.reward.mean} (${s.reward.distribution.null} not evaluated)`}, leaks ${s.leaks}`) +
        `${budget}\n`,
    );
    if (targetSft !== undefined && s.sft_trajectories < targetSft) {
      process.stderr.write(`note: --target-sft ${targetSft} not reached (${s.sft_trajectories} passed)\n`);
    }
    if (s.tasks + s.infrastructure_failures.tasks > taskCount && flags.tasks === undefined) {
      process.stderr.write(
        `note: ${out} holds tasks from an earlier run with a larger --n; the summary covers all of them\n`,
      );
    }
    const again = `cove ${process.argv.slice(2).join(' ')}`;
    if (lost > 0) {
      process.stderr.write(
        `incomplete: ${lost} episode(s) ended on an infrastructure failure (model endpoint unreachable or failing after ` +
          `retries; see termination_detail in trajectories.jsonl); they are left out of yields and scores. ` +
          `Fix the endpoint, then run the same command again to retry them: ${again}\n`,
      );
    }
    const notRun = taskCount - s.tasks - s.infrastructure_failures.tasks;
    if (stoppedEarly && notRun > 0) {
      process.stderr.write(
        `incomplete: stopped early with ${notRun} of ${taskCount} task(s) not run, since every episode so far failed ` +
          `on the model endpoint; fix it (see the warning above), then run the same command again to continue: ${again}\n`,
      );
    }
    if (interrupted && notRun > 0) {
      process.stderr.write(
        `incomplete: stopped with ${notRun} of ${taskCount} task(s) not run; run the same command again to continue: ${again}\n`,
      );
    }
    if (failedJobs > 0) {
      process.stderr.write(
        `incomplete: ${failedJobs} episode job(s) failed on every try (see the warnings above); run the same command again to retry them: ${again}\n`,
      );
    }
    if (interrupted) process.exitCode = 130;
    else if (failedJobs > 0) process.exitCode = 1;
    // nothing but infrastructure failures: the endpoint is down or misconfigured, not a finished run
    else if (newEpisodes > 0 && newInfrastructureErrors === newEpisodes) process.exitCode = 1;
  });
}
