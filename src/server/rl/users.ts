import { ConfigError } from '../../core/errors.js';
import type { Rng } from '../../core/rng.js';
import type { Domain } from '../../domains/domain.js';
import { ChatModel, type ChatModelOptions } from '../../llm/chat-model.js';
import { type RoleConfig, resolveRoleConfig } from '../../llm/config.js';
import { coveBlockFor } from '../../run/roles.js';
import { LlmUser } from '../../sim/llm-user.js';
import type { UserSimulator } from '../../sim/roles.js';
import { scenarioText, userSystemPrompt } from '../../sim/user-guidelines.js';
import type { RunTask } from '../../tasks/task.js';

/** How the service plays the user when a client names a model spec (`openai:<model>`). */
export interface ModelUserSettings {
  /** The user's role settings from `--config` (`roles.user`), overridden by the flags below. */
  readonly fromConfig?: Partial<RoleConfig>;
  /** `--user-base-url`: every model spec is served by this endpoint (clients choose the model, never the URL). */
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly models: ChatModelOptions;
  /** The user guidelines (cove's or τ²'s) put before the task's scenario. */
  readonly guidelines: string;
}

/**
 * Builds the user simulator of a service episode from a spec: `scripted` (the domain's scripted user; needs a
 * task with a `cove` block) or `openai:<model>` (a model behind the configured OpenAI-compatible endpoint, as
 * `cove generate --user openai:<model>`). One {@link ChatModel} per spec is kept, so the endpoint's concurrency
 * and rate limits are shared by all episodes.
 */
export class UserFactory {
  readonly #domain: Domain;
  readonly #settings: ModelUserSettings;
  readonly #models = new Map<string, ChatModel>();

  constructor(domain: Domain, settings: ModelUserSettings) {
    this.#domain = domain;
    this.#settings = settings;
  }

  /**
   * The user of one episode and the name its record carries.
   * @throws {ConfigError} for an unknown spec, `scripted` on a τ² task or a domain without scripted roles, or a
   * model endpoint without its API key.
   */
  create(spec: string, task: RunTask, rng: Rng): { user: UserSimulator; name: string } {
    if (spec === 'scripted') {
      const sim = this.#domain.simulation;
      if (sim === undefined) throw new ConfigError(`domain ${this.#domain.name} has no scripted user`);
      return {
        user: sim.createScriptedUser(coveBlockFor(task, 'the scripted user'), rng),
        name: 'scripted',
      };
    }
    if (!spec.startsWith('openai:') || spec.length <= 'openai:'.length)
      throw new ConfigError(`user must be "scripted" or "openai:<model>", not '${spec}'`);
    let model = this.#models.get(spec);
    if (model === undefined) {
      const config = resolveRoleConfig('user', this.#settings.fromConfig, {
        model: spec,
        ...(this.#settings.baseUrl === undefined ? {} : { base_url: this.#settings.baseUrl }),
        ...(this.#settings.apiKeyEnv === undefined ? {} : { api_key_env: this.#settings.apiKeyEnv }),
      });
      model = new ChatModel('user', config, this.#settings.models);
      this.#models.set(spec, model);
    }
    const prompt = userSystemPrompt(
      this.#settings.guidelines,
      scenarioText(task.user_scenario.instructions, task.user_scenario.persona),
    );
    return { user: new LlmUser(model, prompt, task.id), name: model.config.model };
  }
}
