import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { allCoveTasks, loadCoveTasks, loadTau2Tasks } from '../../cli/tasks-input.js';
import { ConfigError } from '../../core/errors.js';
import { sha256Hex } from '../../core/hash.js';
import { agentContext, type TextSetting } from '../../domains/agent-context.js';
import { chooseDomain, domainOfTasks } from '../../domains/infer-domain.js';
import { readJsonFile } from '../../domains/load-db.js';
import type { Semantics } from '../../env/tool.js';
import { EndpointPool } from '../../llm/chat-model.js';
import { type CoveConfig, type RoleConfig, readCoveConfig } from '../../llm/config.js';
import { UsageMeter } from '../../llm/usage-meter.js';
import type { EpisodeLimits } from '../../sim/episode-session.js';
import { COVE_USER_GUIDELINES, guidelinesLabel, tau2UserGuidelines } from '../../sim/user-guidelines.js';
import { parseTau2Tasks } from '../../tasks/tau2-task.js';
import { resolveTau2DomainDir, tau2Root } from '../../tau2/data-dir.js';
import { COVE_VERSION } from '../../version.js';
import { EpisodeRecorder } from './recorder.js';
import { RlService } from './service.js';
import { UserFactory } from './users.js';

/** What `cove serve` is asked to serve. */
export interface ServeSetup {
  readonly tasks: string;
  readonly domain?: string;
  readonly db?: string;
  readonly tau2Data?: string;
  readonly text?: TextSetting;
  /** Semantics of τ² tasks (a cove tasks file decides its own). @defaultValue 'parity' */
  readonly semantics?: Semantics;
  /** The user of episodes that name none: `scripted` or `openai:<model>`. @defaultValue 'scripted' */
  readonly user?: string;
  readonly userBaseUrl?: string;
  readonly userApiKeyEnv?: string;
  readonly config?: string;
  readonly limits?: EpisodeLimits;
  readonly maxEpisodes?: number;
  readonly idleTimeoutMs?: number;
  /** Run folder that finished episodes are appended to. */
  readonly record?: string;
  readonly command?: readonly string[];
  /** Environment variables (`COVE_TAU2_DATA`, API keys of model-played users). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly onWarning?: (message: string) => void;
}

/**
 * Loads tasks as `cove generate --tasks` does — tasks made by `cove tasks` with the DB they were made from (its
 * hash checked), or τ²'s own tasks with the pristine DB of the τ² data directory — and builds the episode
 * service over them.
 * @throws {ConfigError} / {@link InputFileError} for unreadable tasks, a DB that does not match, a bad user spec.
 */
export function setupRlService(setup: ServeSetup): RlService {
  const parsed = parseTau2Tasks(readJsonFile(setup.tasks), setup.tasks);
  const domain = chooseDomain(setup.domain, domainOfTasks(parsed, setup.tasks), {
    input: setup.tasks,
    fallback: 'retail',
  });
  const cove = allCoveTasks(parsed);
  const input = cove
    ? loadCoveTasks(domain, setup.tasks, setup.db)
    : {
        ...loadTau2Tasks(domain, setup.tasks, { db: setup.db, tau2Data: setup.tau2Data }),
        semantics: undefined,
      };
  const semantics: Semantics = input.semantics ?? setup.semantics ?? 'parity';
  if (cove && setup.semantics !== undefined && setup.semantics !== semantics) {
    input.loaded.base.close();
    throw new ConfigError(
      `--semantics ${setup.semantics}: the tasks in ${setup.tasks} were made under ${semantics}`,
    );
  }
  const text = setup.text ?? 'cove';
  const tau2Dir =
    text === 'tau2'
      ? resolveTau2DomainDir(domain.name, {
          explicit: setup.tau2Data,
          fromEnv: setup.env.COVE_TAU2_DATA,
          tasksFile: setup.tasks,
        })
      : undefined;
  const context = agentContext(domain, text, tau2Dir);
  const guidelines = tau2Dir === undefined ? COVE_USER_GUIDELINES : tau2UserGuidelines(tau2Root(tau2Dir));
  const config: CoveConfig =
    setup.config === undefined ? { roles: {}, prices: {}, budget: {} } : readCoveConfig(setup.config);
  if (config.roles.user?.style === 'json') {
    throw new ConfigError(
      `${setup.config}: $.roles.user.style: cove serve plays model users in the stop-token style only; remove style`,
    );
  }
  const users = new UserFactory(domain, {
    ...(config.roles.user === undefined ? {} : { fromConfig: config.roles.user as Partial<RoleConfig> }),
    ...(setup.userBaseUrl === undefined ? {} : { baseUrl: setup.userBaseUrl }),
    ...(setup.userApiKeyEnv === undefined ? {} : { apiKeyEnv: setup.userApiKeyEnv }),
    models: {
      env: setup.env,
      prices: config.prices,
      meter: new UsageMeter(),
      endpoints: new EndpointPool(),
    },
    guidelines,
  });
  const defaultUser = setup.user ?? config.roles.user?.model ?? 'scripted';
  if (defaultUser !== 'scripted' && !defaultUser.startsWith('openai:'))
    throw new ConfigError(`--user must be scripted or openai:<model>, not '${defaultUser}'`);
  const tasksText = readFileSync(setup.tasks, 'utf8');
  const source = `tasks:${sha256Hex(tasksText).slice(0, 16)}`;
  const fingerprint = { service: 'serve', domain: domain.name, source, semantics, text };
  const runName = `serve-${sha256Hex(JSON.stringify(fingerprint)).slice(0, 12)}`;
  const settings = {
    semantics,
    text,
    guidelines: defaultUser === 'scripted' ? 'scripted' : guidelinesLabel(text),
  };
  const recorder =
    setup.record === undefined
      ? undefined
      : new EpisodeRecorder({
          dir: resolve(setup.record),
          runName,
          command: setup.command ?? [],
          coveVersion: COVE_VERSION,
          fingerprint,
          tasks: input.tasks,
          tasksText,
          ...('sandboxText' in input && input.sandboxText !== undefined
            ? { sandboxText: input.sandboxText }
            : {}),
          agentContext: context,
          ...(setup.onWarning === undefined ? {} : { onWarning: setup.onWarning }),
        });
  return new RlService({
    domain,
    base: input.loaded.base,
    dbSha256: input.loaded.hashes.canonical_sha256,
    benchmarkData: input.loaded.isTau2Benchmark,
    semantics,
    tasks: input.tasks,
    agentContext: context,
    settings,
    modelUserGuidelines: guidelinesLabel(text),
    limits: setup.limits ?? { repeatedCallLimit: text === 'tau2' ? null : 5 },
    users,
    defaultUser,
    maxEpisodes: setup.maxEpisodes ?? 1000,
    idleTimeoutMs: setup.idleTimeoutMs ?? 600_000,
    runName,
    coveVersion: COVE_VERSION,
    ...(recorder === undefined ? {} : { recorder }),
    ...(setup.onWarning === undefined ? {} : { onWarning: setup.onWarning }),
  });
}
