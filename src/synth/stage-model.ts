import { ConfigError } from '../core/errors.js';
import { ChatModel, EndpointPool } from '../llm/chat-model.js';
import { type CoveConfig, type RoleConfig, readCoveConfig, resolveRoleConfig } from '../llm/config.js';
import { UsageMeter } from '../llm/usage-meter.js';
import type { Stage } from './stage.js';

/** Model flags of `cove synth <stage>` and of a pipeline step (`model`, `base_url`, … in pipeline.json). */
export interface StageModelFlags {
  /** `openai:<model>`. */
  readonly model?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly apiKeyEnv?: string | undefined;
  readonly temperature?: number | undefined;
  readonly maxTokens?: number | undefined;
  /** Sampling seed sent to the server (the run's `--seed`). */
  readonly seed?: number | undefined;
}

/** An empty config: no roles, no prices, no budget. */
export const NO_CONFIG: CoveConfig = { roles: {}, prices: {}, budget: {} };

/** Reads `--config` (roles.synth, roles.judge, prices), or the empty config. */
export function stageConfig(file: string | undefined): CoveConfig {
  return file === undefined ? NO_CONFIG : readCoveConfig(file);
}

/**
 * The chat model of a stage: the config file's `roles.<role>` (role `synth` unless the stage says otherwise), then
 * the flags on top. Its requests carry `x-cove-role: <stage name>`. Undefined when neither names a model.
 * @throws {ConfigError} for a bad model spec or a missing API key.
 */
export function stageModel(
  stage: Pick<Stage, 'name' | 'role'>,
  flags: StageModelFlags,
  config: CoveConfig,
  env: Readonly<Record<string, string | undefined>>,
  endpoints: EndpointPool = new EndpointPool(),
): ChatModel | undefined {
  const role = stage.role ?? 'synth';
  const fromFile = config.roles[role] as Partial<RoleConfig> | undefined;
  if (flags.model === undefined && fromFile?.model === undefined) return undefined;
  if (flags.model !== undefined && !flags.model.startsWith('openai:'))
    throw new ConfigError(`--model must be openai:<model>, not '${flags.model}'`);
  const resolved = resolveRoleConfig(role, fromFile, {
    model: flags.model,
    base_url: flags.baseUrl,
    api_key_env: flags.apiKeyEnv,
    temperature: flags.temperature,
    max_tokens: flags.maxTokens,
    seed: flags.seed,
  } as Partial<RoleConfig>);
  return new ChatModel(
    role,
    resolved,
    { env, prices: config.prices, meter: new UsageMeter(), endpoints },
    stage.name,
  );
}
