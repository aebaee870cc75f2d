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
  role: 'agent' | 'user' | 'tools',
  spec: string,
  config: CoveConfig,
  flags: { baseUrl?: string | undefined; apiKeyEnv?: string | undefined; style?: string | undefined },
): RoleConfig {
  if (!spec.startsWith('openai:')) {
    throw new ConfigError(
      role === 'tools'
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
    if (role !== 'agent' && role !== 'user' && role !== 'tools') {
      throw new ConfigError(
        `${flags.config}: $.roles.${role}: cove generate plays only the agent, the user and the tools (no ${role} role yet); remove roles.${role}`,
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
  const maxCostUsd = positive('--budget-usd', flags.budgetUsd) ?? config.budget.max_cost_usd;
  if (maxCostUsd !== undefined) {
    // a cost budget over a model without a price would count USD 0 forever: refuse rather than run unbounded
    for (const role of [choice.agent, choice.user, choice.tools ?? 'execute']) {
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
    meter,
    config,
    models: { env, prices: config.prices, meter, endpoints: new EndpointPool() },
  };
}
