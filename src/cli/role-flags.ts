import type { Command } from 'commander';
import { ConfigError } from '../core/errors.js';
import type { ChatModelOptions } from '../llm/chat-model.js';
import { EndpointPool } from '../llm/chat-model.js';
import { type CoveConfig, type RoleConfig, readCoveConfig, resolveRoleConfig } from '../llm/config.js';
import { UsageMeter } from '../llm/usage-meter.js';
import type { RoleChoice } from '../run/roles.js';
import { isUserStyle, USER_STYLES } from '../sim/model-user/user-style.js';

/** Flags that choose and configure the roles of `cove generate`. */
export interface RoleFlags {
  agent?: string;
  agentBaseUrl?: string;
  agentApiKeyEnv?: string;
  user?: string;
  userBaseUrl?: string;
  userApiKeyEnv?: string;
  /** `stop-token` (default) or `json`: how a model-played user speaks. */
  userStyle?: string;
  /** `openai:<model>`: the rubric judge of descriptive tasks. */
  judge?: string;
  judgeBaseUrl?: string;
  judgeApiKeyEnv?: string;
  /** `execute` (default: the database runs every call) or `model` (a model plays every tool output). */
  toolOutputs?: string;
  /** `openai:<model>`: the model that plays the tool outputs (role `tools`). */
  toolModel?: string;
  toolBaseUrl?: string;
  toolApiKeyEnv?: string;
  /** Let trajectories with model-played tool outputs into sft.jsonl. */
  allowSimulatedTools?: boolean;
  config?: string;
  budgetUsd?: string;
  budgetTokens?: string;
}

/** The roles, the shared model options (endpoints, prices, usage meter) and the config file read. */
export interface ResolvedRoles {
  readonly choice: RoleChoice;
  /** The rubric judge (`--judge` or `roles.judge.model`), when one is set. */
  readonly judge?: RoleConfig;
  readonly models: ChatModelOptions;
  readonly meter: UsageMeter;
  readonly config: CoveConfig;
}

function positive(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new ConfigError(`${flag} must be a positive number, not '${value}'`);
  return n;
}

function modelRole(
  role: 'agent' | 'user' | 'judge' | 'tools',
  spec: string,
  config: CoveConfig,
  flags: { baseUrl?: string | undefined; apiKeyEnv?: string | undefined; style?: string | undefined },
): RoleConfig {
  if (!spec.startsWith('openai:')) {
    throw new ConfigError(
      role === 'judge'
        ? `--judge must be openai:<model>, not '${spec}'`
        : role === 'tools'
          ? `--tool-model must be openai:<model>, not '${spec}'`
          : `--${role} must be ${role === 'agent' ? 'oracle' : 'scripted'} or openai:<model>, not '${spec}'`,
    );
  }
  const fromFile = config.roles[role] as Partial<RoleConfig> | undefined;
  return resolveRoleConfig(role, fromFile, {
    model: spec,
    base_url: flags.baseUrl,
    api_key_env: flags.apiKeyEnv,
    style: flags.style,
  } as Partial<RoleConfig>);
}

/**
 * The model playing the tool outputs (`--tool-outputs model` with `--tool-model openai:<m>` or `roles.tools` of the
 * config file), or `undefined` when the database executes the calls.
 * @throws {ConfigError} for a bad mode, a model mode without a model, or tool-model flags without model mode.
 */
function toolsRole(flags: RoleFlags, config: CoveConfig): RoleConfig | undefined {
  const mode = flags.toolOutputs ?? 'execute';
  if (mode !== 'execute' && mode !== 'model')
    throw new ConfigError(`--tool-outputs must be execute or model, not '${mode}'`);
  if (mode === 'execute') {
    const given = [
      ['--tool-model', flags.toolModel],
      ['--tool-base-url', flags.toolBaseUrl],
      ['--tool-api-key-env', flags.toolApiKeyEnv],
      ['--allow-simulated-tools', flags.allowSimulatedTools],
    ].filter(([, v]) => v !== undefined);
    if (given.length > 0) {
      const names = given.map(([n]) => n).join(', ');
      throw new ConfigError(
        `${names} applies when a model plays the tool outputs, but the database executes them; add --tool-outputs model, or drop ${names}`,
      );
    }
    if (config.roles.tools !== undefined) {
      throw new ConfigError(
        `${flags.config}: $.roles.tools configures the model that plays the tool outputs; add --tool-outputs model, or remove roles.tools`,
      );
    }
    return undefined;
  }
  const spec = flags.toolModel ?? config.roles.tools?.model;
  if (spec === undefined) {
    throw new ConfigError(
      '--tool-outputs model needs the model that plays the tools: --tool-model openai:<model> (with --tool-base-url), or roles.tools in --config',
    );
  }
  return modelRole('tools', spec, config, { baseUrl: flags.toolBaseUrl, apiKeyEnv: flags.toolApiKeyEnv });
}

/**
 * Resolves `--agent`/`--user` (with their `--*-base-url`, `--*-api-key-env`), `--config` and the budget flags.
 * A role given only in the config file (`roles.agent.model`) is used when its flag is absent.
 * @throws {ConfigError} / InputFileError for bad flags or config.
 */
export function resolveRoles(
  flags: RoleFlags,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedRoles {
  const config: CoveConfig =
    flags.config === undefined ? { roles: {}, prices: {}, budget: {} } : readCoveConfig(flags.config);
  for (const role of Object.keys(config.roles)) {
    if (role !== 'agent' && role !== 'user' && role !== 'judge' && role !== 'tools') {
      throw new ConfigError(
        `${flags.config}: $.roles.${role}: cove generate plays only the agent, the user, the tools and the judge (no ${role} role); remove roles.${role}`,
      );
    }
  }
  const tools = toolsRole(flags, config);
  const agentSpec = flags.agent ?? config.roles.agent?.model ?? 'oracle';
  const userSpec = flags.user ?? config.roles.user?.model ?? 'scripted';
  // flags of a model role are refused next to a built-in role: they would be silently ignored
  const unused = [
    ...(agentSpec === 'oracle'
      ? [
          ['--agent-base-url', flags.agentBaseUrl],
          ['--agent-api-key-env', flags.agentApiKeyEnv],
        ]
      : []),
    ...(userSpec === 'scripted'
      ? [
          ['--user-base-url', flags.userBaseUrl],
          ['--user-api-key-env', flags.userApiKeyEnv],
          ['--user-style', flags.userStyle],
        ]
      : []),
  ].filter(([, v]) => v !== undefined);
  if (unused.length > 0) {
    const names = unused.map(([n]) => n).join(', ');
    const role = String(unused[0]?.[0]).startsWith('--agent') ? 'agent' : 'user';
    throw new ConfigError(
      `${names} applies to a model-played ${role}, but the ${role} is ${role === 'agent' ? 'the oracle' : 'scripted'}; ` +
        `add --${role} openai:<model>, or drop ${names}`,
    );
  }
  if (flags.userStyle !== undefined && !isUserStyle(flags.userStyle)) {
    throw new ConfigError(`--user-style must be ${USER_STYLES.join(' or ')}, not '${flags.userStyle}'`);
  }
  if (userSpec === 'scripted' && config.roles.user?.style !== undefined) {
    throw new ConfigError(
      `${flags.config}: $.roles.user.style applies to a model-played user, but the user is scripted; add --user openai:<model>, or remove style`,
    );
  }
  const modelPlayed = agentSpec !== 'oracle' || userSpec !== 'scripted' || tools !== undefined;
  if (!modelPlayed) {
    const budgets = [
      ['--budget-usd', flags.budgetUsd],
      ['--budget-tokens', flags.budgetTokens],
    ].filter(([, v]) => v !== undefined);
    if (budgets.length > 0) {
      throw new ConfigError(
        `${budgets.map(([n]) => n).join(', ')}: the oracle agent and the scripted user make no model calls, so there is nothing to budget; ` +
          'add --agent openai:<model> or --user openai:<model>, or drop the budget',
      );
    }
  }
  const choice: RoleChoice = {
    agent:
      agentSpec === 'oracle'
        ? 'oracle'
        : modelRole('agent', agentSpec, config, {
            baseUrl: flags.agentBaseUrl,
            apiKeyEnv: flags.agentApiKeyEnv,
          }),
    user:
      userSpec === 'scripted'
        ? 'scripted'
        : modelRole('user', userSpec, config, {
            baseUrl: flags.userBaseUrl,
            apiKeyEnv: flags.userApiKeyEnv,
            style: flags.userStyle,
          }),
    ...(tools === undefined ? {} : { tools }),
  };
  const judgeSpec = flags.judge ?? config.roles.judge?.model;
  if (judgeSpec === undefined && (flags.judgeBaseUrl ?? flags.judgeApiKeyEnv) !== undefined) {
    throw new ConfigError(
      '--judge-base-url and --judge-api-key-env apply to a judge: add --judge openai:<model>',
    );
  }
  const judge =
    judgeSpec === undefined
      ? undefined
      : modelRole('judge', judgeSpec, config, {
          baseUrl: flags.judgeBaseUrl,
          apiKeyEnv: flags.judgeApiKeyEnv,
        });
  const maxCostUsd = positive('--budget-usd', flags.budgetUsd) ?? config.budget.max_cost_usd;
  if (maxCostUsd !== undefined) {
    // a cost budget over a model without a price would count USD 0 forever: refuse rather than run unbounded
    for (const role of [
      choice.agent,
      choice.user,
      choice.tools ?? 'execute',
      ...(judge === undefined ? [] : [judge]),
    ]) {
      if (typeof role === 'string') continue;
      const model = role.model.replace(/^openai:/, '');
      if (config.prices[model] === undefined) {
        throw new ConfigError(
          `a cost budget needs the price of ${model}: add "prices": {"${model}": {"prompt_per_mtok": …, "completion_per_mtok": …}} to --config, or use --budget-tokens`,
        );
      }
    }
  }
  const meter = new UsageMeter({
    max_tokens: positive('--budget-tokens', flags.budgetTokens) ?? config.budget.max_tokens,
    max_cost_usd: maxCostUsd,
  });
  return {
    choice,
    ...(judge === undefined ? {} : { judge }),
    meter,
    config,
    models: { env, prices: config.prices, meter, endpoints: new EndpointPool() },
  };
}

/**
 * Adds the flags of the model-played roles to `command` (`cove generate`): the agent, the user simulator, the
 * rubric judge of descriptive tasks and the tool model of `--tool-outputs model`; {@link resolveRoles} reads them.
 */
export function withRoleOptions(command: Command): Command {
  return command
    .option('--agent <spec>', 'agent: oracle, or openai:<model> (default: oracle, or the config file)')
    .option('--agent-base-url <url>', 'OpenAI-compatible base URL of the agent model')
    .option(
      '--agent-api-key-env <name>',
      'environment variable with the agent API key (default OPENAI_API_KEY)',
    )
    .option(
      '--user <spec>',
      'user simulator: scripted, or openai:<model> (default: scripted, or the config file)',
    )
    .option('--user-base-url <url>', 'OpenAI-compatible base URL of the user model')
    .option(
      '--user-style <style>',
      'how a model user speaks: stop-token (plain text ending with ###STOP###) or json ({user_message, is_task_complete})',
    )
    .option(
      '--user-api-key-env <name>',
      'environment variable with the user API key (default OPENAI_API_KEY)',
    )
    .option(
      '--judge <spec>',
      'openai:<model> judging descriptive tasks by their rubrics (without it they never enter sft.jsonl)',
    )
    .option('--judge-base-url <url>', 'OpenAI-compatible base URL of the judge model')
    .option(
      '--judge-api-key-env <name>',
      'environment variable with the judge API key (default OPENAI_API_KEY)',
    )
    .option(
      '--tool-outputs <mode>',
      'who answers tool calls: execute (the database; default) or model (a model plays every tool output, the task-oriented baseline)',
    )
    .option('--tool-model <spec>', 'with --tool-outputs model: openai:<model> that plays the tool outputs')
    .option('--tool-base-url <url>', 'OpenAI-compatible base URL of the tool model')
    .option(
      '--tool-api-key-env <name>',
      'environment variable with the tool model API key (default OPENAI_API_KEY)',
    )
    .option(
      '--allow-simulated-tools',
      'with --tool-outputs model: let trajectories that ended normally into sft.jsonl (their verification means nothing)',
    );
}
