import { z } from 'zod';
import { ConfigError, InputFileError } from '../core/errors.js';
import { describeIssue, formatIssuePath } from '../core/schema-helpers.js';
import { readPlainJson } from '../io/read-input.js';
import { USER_STYLES } from '../sim/model-user/user-style.js';

/**
 * Model-played roles (docs/design.md §5): per role, an OpenAI-compatible endpoint and sampling settings. Set by flags
 * (`--agent openai:<model> --agent-base-url …`) or a config file (`--config cove.json`, validated by
 * {@link coveConfigSchema}); flags win over the file.
 */

/** `tools`: the model that plays the tool outputs (`cove generate --tool-outputs model`). */
export const ROLE_NAMES = ['agent', 'user', 'judge', 'synth', 'tools'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export const roleConfigSchema = z.strictObject({
  /** `openai:<model>`: a chat-completions model behind an OpenAI-compatible API. */
  model: z.string().regex(/^openai:.+/, 'expected "openai:<model>"'),
  /** Base URL of the API, e.g. `http://127.0.0.1:8000/v1` (vLLM, SGLang, Ollama) or `https://api.openai.com/v1`. */
  base_url: z.string().url().default('https://api.openai.com/v1'),
  /** Name of the environment variable holding the API key (a loopback base URL needs none). */
  api_key_env: z.string().default('OPENAI_API_KEY'),
  temperature: z.number().min(0).max(2).default(0),
  /** Sampling seed sent to the server (τ² sends one per trial). */
  seed: z.number().int().optional(),
  max_tokens: z.number().int().positive().optional(),
  /** Per-request timeout in milliseconds. */
  timeout_ms: z.number().int().positive().default(60_000),
  /** Retries on 408/409/429/5xx, timeouts and network errors, with exponential backoff and jitter. */
  max_retries: z.number().int().min(0).max(20).default(4),
  /** Requests in flight at once on this endpoint. */
  max_concurrency: z.number().int().positive().default(64),
  /** Requests started per minute on this endpoint (no limit when absent). */
  requests_per_minute: z.number().int().positive().optional(),
  /** User role only: how the model speaks (`stop-token`, the default, or `json`; docs/design.md §5). */
  style: z.enum(USER_STYLES).optional(),
});
export type RoleConfig = z.output<typeof roleConfigSchema>;

/** USD per million tokens, per model name (without the `openai:` prefix). */
export const priceTableSchema = z.record(
  z.string(),
  z.strictObject({ prompt_per_mtok: z.number().min(0), completion_per_mtok: z.number().min(0) }),
);
export type PriceTable = z.output<typeof priceTableSchema>;

export const coveConfigSchema = z.strictObject({
  roles: z.partialRecord(z.enum(ROLE_NAMES), roleConfigSchema.partial()).default({}),
  prices: priceTableSchema.default({}),
  /** A run stops starting new episodes once it has spent this much. */
  budget: z
    .strictObject({
      max_tokens: z.number().int().positive().optional(),
      max_cost_usd: z.number().positive().optional(),
    })
    .default({}),
});
export type CoveConfig = z.output<typeof coveConfigSchema>;

/** Reads and validates a config file. @throws {InputFileError} naming the file and the field. */
export function readCoveConfig(file: string): CoveConfig {
  const value = readPlainJson(file, { what: '--config' });
  const result = coveConfigSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new InputFileError(
      file,
      formatIssuePath(issue?.path ?? []),
      issue === undefined ? 'invalid' : describeIssue(issue, value),
    );
  }
  return result.data;
}

/**
 * A role's full config: the file's entry, then flags (`model`, `base_url`, …) on top, then defaults.
 * @throws {ConfigError} when the result is invalid (e.g. no model).
 */
export function resolveRoleConfig(
  role: RoleName,
  fromFile: Partial<RoleConfig> | undefined,
  flags: Partial<RoleConfig>,
): RoleConfig {
  const merged = {
    ...fromFile,
    ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)),
  };
  const result = roleConfigSchema.safeParse(merged);
  if (result.success && result.data.style !== undefined && role !== 'user') {
    throw new ConfigError(
      `${role} role: style applies to the user role only (roles.user.style or --user-style); remove it`,
    );
  }
  if (result.success) {
    const protocol = new URL(result.data.base_url).protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      throw new ConfigError(
        `${role} role: base URL ${result.data.base_url} is not http:// or https://; give the server's OpenAI-compatible URL, e.g. http://127.0.0.1:8000/v1`,
      );
    }
  }
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(
      `${role} role: ${formatIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return result.data;
}

/** True for a base URL on this machine (127.0.0.0/8, localhost, ::1): such endpoints need no API key. */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
