import { setMaxListeners } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { agentContext } from '../../domains/agent-context.js';
import type { Domain } from '../../domains/domain.js';
import { type LoadedDb, readJsonFile } from '../../domains/load-db.js';
import { getDomain } from '../../domains/registry.js';
import { evalReport, reportTable } from '../../eval/eval-report.js';
import { TAU2_SEED } from '../../eval/py-random.js';
import { runEval } from '../../eval/run-eval.js';
import { ChatModel } from '../../llm/chat-model.js';
import { type RoleConfig, resolveRoleConfig } from '../../llm/config.js';
import { lockRunFolder } from '../../run/run-lock.js';
import { tau2UserGuidelines } from '../../sim/user-guidelines.js';
import type { RunTask } from '../../tasks/task.js';
import { parseTau2Tasks } from '../../tasks/tau2-task.js';
import { resolveTau2DomainDir, tau2Root } from '../../tau2/data-dir.js';
import { COVE_VERSION } from '../../version.js';
import { intFlag } from '../db-source.js';
import { type RoleFlags, resolveRoles } from '../role-flags.js';
import { allCoveTasks, loadCoveTasks, loadTau2Tasks } from '../tasks-input.js';

interface EvalFlags extends RoleFlags {
  domain: string;
  tasks?: string;
  taskSet: string;
  split?: string;
  ids?: string;
  trials: string;
  judge?: string;
  judgeBaseUrl?: string;
  judgeApiKeyEnv?: string;
  concurrency: string;
  out: string;
  tau2Data?: string;
  maxSteps: string;
  maxErrors: string;
  seed: string;
}

/** The tasks file of a task set inside a τ² data directory. */
function taskSetFile(domainDir: string, domain: string, set: string): string {
  if (set === 'head') return join(domainDir, 'tasks.json');
  const legacy = join(tau2Root(domainDir), 'legacy_v0.1.0', domain, 'tasks.json');
  if (!existsSync(legacy)) {
    throw new ConfigError(
      `--task-set legacy_v0.1.0: ${legacy} does not exist (τ²'s first-release tasks.json goes there)`,
    );
  }
  return legacy;
}

/** Keeps the tasks of `--split` (τ²'s split_tasks.json) and `--ids`. */
function selectTasks(tasks: RunTask[], domainDir: string, flags: EvalFlags): RunTask[] {
  let out = tasks;
  if (flags.split !== undefined) {
    const file = join(domainDir, 'split_tasks.json');
    const splits = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
    const ids = splits[flags.split];
    if (ids === undefined) {
      throw new ConfigError(`--split ${flags.split}: ${file} has splits ${Object.keys(splits).join(', ')}`);
    }
    out = out.filter((t) => ids.includes(t.id));
  }
  if (flags.ids !== undefined) {
    const ids = flags.ids.split(',').map((s) => s.trim());
    const missing = ids.filter((id) => !out.some((t) => t.id === id));
    if (missing.length > 0)
      throw new ConfigError(`--ids: no task ${missing.join(', ')} among the selected tasks`);
    out = out.filter((t) => ids.includes(t.id));
  }
  if (out.length === 0) throw new ConfigError('no task selected');
  return out;
}

/**
 * Tasks made by cove (a `cove` block) for `cove eval`: run in τ²'s setting on the DB they were made from, graded by
 * τ²'s rules with CoVe's verifier score beside. @throws {ConfigError} for tasks made under `fixed` semantics (τ²'s
 * setting is τ²'s tools, `parity`) or with `--split` (τ²'s splits name τ²'s tasks).
 */
function coveTaskInput(
  domain: Domain,
  file: string,
  flags: EvalFlags,
): { tasks: RunTask[]; loaded: LoadedDb } {
  if (flags.split !== undefined)
    throw new ConfigError(`--split names τ²'s own tasks; ${file} holds tasks made by cove: use --ids`);
  const input = loadCoveTasks(domain, file);
  if (input.semantics !== 'parity') {
    input.loaded.base.close();
    throw new ConfigError(
      `${file}: its tasks were made under ${input.semantics} semantics; cove eval runs τ²'s tools as τ² does (parity): make the tasks with --semantics parity, or run them with cove generate --tasks`,
    );
  }
  return { tasks: input.tasks as RunTask[], loaded: input.loaded };
}

/** `cove eval`: τ² tasks in τ²'s exact setting, pass^k report and τ²'s results.json. */
export function registerEval(program: Command): void {
  program
    .command('eval')
    .description("evaluate a model on τ²-bench tasks in τ²'s exact setting: pass^k, results.json")
    .requiredOption('--domain <name>', 'retail or airline')
    .option('--tasks <file>', 'τ² tasks.json (default: the task set of the τ² data directory)')
    .option('--task-set <set>', 'head or legacy_v0.1.0', 'head')
    .option('--split <name>', "τ²'s split: train, test or base (split_tasks.json)")
    .option('--ids <list>', 'comma-separated task ids')
    .option('--trials <n>', 'trials per task', '4')
    .option('--agent <spec>', 'openai:<model>')
    .option('--agent-base-url <url>', 'OpenAI-compatible base URL of the agent model')
    .option('--agent-api-key-env <name>', 'variable with the agent API key (default OPENAI_API_KEY)')
    .option('--user <spec>', 'openai:<model> playing the user simulator')
    .option('--user-base-url <url>', 'OpenAI-compatible base URL of the user model')
    .option('--user-api-key-env <name>', 'variable with the user API key (default OPENAI_API_KEY)')
    .option('--judge <spec>', 'openai:<model> judging NL assertions (τ² uses gpt-4.1-2025-04-14)')
    .option('--judge-base-url <url>', 'OpenAI-compatible base URL of the judge model')
    .option('--judge-api-key-env <name>', 'variable with the judge API key (default OPENAI_API_KEY)')
    .option('--config <file>', 'cove.json with roles (agent, user, judge) and prices')
    .option('--concurrency <n>', 'episodes at once', '8')
    .requiredOption('--out <dir>', 'output folder (the same command resumes it)')
    .option('--tau2-data <dir>', 'τ² data directory (default: $COVE_TAU2_DATA, else an ancestor of --tasks)')
    .option('--max-steps <n>', "τ²'s max_steps", '200')
    .option('--max-errors <n>', "τ²'s max_errors", '10')
    .option('--seed <n>', "τ²'s seed of the per-trial seeds", String(TAU2_SEED))
    .action(async (flags: EvalFlags) => {
      const domain = getDomain(flags.domain);
      if (flags.taskSet !== 'head' && flags.taskSet !== 'legacy_v0.1.0') {
        throw new ConfigError(`--task-set must be head or legacy_v0.1.0, not '${flags.taskSet}'`);
      }
      const roles = resolveRoles(flags, process.env);
      if (roles.choice.agent === 'oracle' || roles.choice.user === 'scripted') {
        throw new ConfigError('cove eval needs --agent openai:<model> and --user openai:<model>');
      }
      if (roles.choice.user.style === 'json') {
        throw new ConfigError(
          `${flags.config}: $.roles.user.style: cove eval plays τ²'s stop-token user only (the benchmark's protocol); remove style`,
        );
      }
      const domainDir = resolveTau2DomainDir(domain.name, {
        explicit: flags.tau2Data,
        fromEnv: process.env.COVE_TAU2_DATA,
        tasksFile: flags.tasks,
      });
      const tasksFile = flags.tasks ?? taskSetFile(domainDir, domain.name, flags.taskSet);
      const taskSet = flags.tasks === undefined ? flags.taskSet : `file:${resolve(flags.tasks)}`;
      const coveTasks =
        flags.tasks !== undefined && allCoveTasks(parseTau2Tasks(readJsonFile(flags.tasks), flags.tasks));
      // one writer per folder, checked before the DB is loaded (seconds) so a second eval is refused at once
      const out = resolve(flags.out);
      mkdirSync(out, { recursive: true });
      lockRunFolder(out, 'cove eval');
      const input = coveTasks
        ? coveTaskInput(domain, tasksFile, flags)
        : loadTau2Tasks(domain, tasksFile, { tau2Data: tau2Root(domainDir) });
      const tasks = selectTasks(input.tasks, domainDir, flags);
      let judge: RoleConfig | undefined;
      const judgeSpec = flags.judge ?? roles.config.roles.judge?.model;
      if (judgeSpec !== undefined) {
        if (!judgeSpec.startsWith('openai:'))
          throw new ConfigError(`--judge must be openai:<model>, not '${judgeSpec}'`);
        judge = resolveRoleConfig(
          'judge',
          roles.config.roles.judge as Partial<RoleConfig> | undefined,
          {
            model: judgeSpec,
            ...(flags.judgeBaseUrl === undefined ? {} : { base_url: flags.judgeBaseUrl }),
            ...(flags.judgeApiKeyEnv === undefined ? {} : { api_key_env: flags.judgeApiKeyEnv }),
          } as Partial<RoleConfig>,
        );
        // reachable before any episode is spent (τ² PR #479)
        try {
          await new ChatModel('judge', { ...judge, max_retries: 1 }, roles.models).complete(
            [{ role: 'user', content: 'Reply with the JSON {"results": []}.' }],
            'cove-judge-check',
          );
        } catch (e) {
          throw new ConfigError(
            `--judge ${judgeSpec} at ${judge.base_url} is not reachable: ${(e as Error).message}`,
          );
        }
      } else if (
        tasks.some(
          (t) =>
            (t.evaluation_criteria?.nl_assertions ?? []).length > 0 &&
            t.evaluation_criteria?.reward_basis?.includes('NL_ASSERTION'),
        )
      ) {
        process.stderr.write(
          'warning: some tasks have NL_ASSERTION in their reward basis and no --judge was given: their reward is null (never a pass)\n',
        );
      }
      const context = agentContext(domain, 'tau2', domainDir);
      const trials = intFlag('--trials', flags.trials, 4, 1);
      const limits = {
        maxSteps: intFlag('--max-steps', flags.maxSteps, 200, 1),
        maxErrors: intFlag('--max-errors', flags.maxErrors, 10, 1),
        repeatedCallLimit: null,
      };
      const controller = new AbortController();
      setMaxListeners(0, controller.signal); // every episode under way listens to it
      process.once('SIGINT', () => {
        process.stderr.write('\nstopping: finishing nothing new (Ctrl-C again to abort)\n');
        controller.abort();
        process.once('SIGINT', () => process.exit(130));
      });
      const seed = intFlag('--seed', flags.seed, TAU2_SEED, 0);
      const result = await runEval({
        domain,
        base: input.loaded.base,
        dbSha256: input.loaded.hashes.canonical_sha256,
        tasks,
        taskSet,
        trials,
        seed,
        agent: roles.choice.agent,
        user: roles.choice.user,
        ...(judge === undefined ? {} : { judge }),
        models: roles.models,
        agentContext: context,
        policy: readFileSync(join(domainDir, 'policy.md'), 'utf8'),
        userGuidelines: tau2UserGuidelines(tau2Root(domainDir)),
        limits,
        concurrency: intFlag('--concurrency', flags.concurrency, 8, 1),
        out,
        coveVersion: COVE_VERSION,
        signal: controller.signal,
      });
      const report = evalReport({
        domain: domain.name,
        taskSet,
        trials,
        seeds: result.seeds,
        agent: roles.choice.agent.model,
        user: roles.choice.user.model,
        judge: judge?.model ?? null,
        tasks,
        base: input.loaded.base,
        records: result.records,
      });
      writeFileSync(join(out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
      input.loaded.base.close();
      process.stdout.write(`${reportTable(report)}\n`);
      process.stderr.write(
        `wrote ${out}: ${result.records.length} episodes (${result.newEpisodes} new), results.json, report.json\n`,
      );
      if (controller.signal.aborted) process.exitCode = 130;
    });
}
