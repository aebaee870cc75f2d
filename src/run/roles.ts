import { ConfigError } from '../core/errors.js';
import type { Domain } from '../domains/domain.js';
import { ChatModel, type ChatModelOptions } from '../llm/chat-model.js';
import type { RoleConfig } from '../llm/config.js';
import type { AgentContext } from '../sim/agent-context.js';
import { LlmAgent } from '../sim/llm-agent.js';
import { LlmUser } from '../sim/llm-user.js';
import { ToolModel } from '../sim/model-tools/tool-model.js';
import { JsonUser } from '../sim/model-user/json-user.js';
import { JSON_USER_GUIDELINES } from '../sim/model-user/json-user-prompt.js';
import type { UserStyle } from '../sim/model-user/user-style.js';
import {
  conversationSoFar,
  modelUserAfter,
  scriptedAgentAfter,
  scriptedUserAfter,
} from '../sim/prefix/prefix-roles.js';
import { scenarioText, userSystemPrompt } from '../sim/user-guidelines.js';
import type { CoveBlock } from '../tasks/cove-task.js';
import type { RunTask } from '../tasks/task.js';
import type { RoleFactory } from './episode-runner.js';

/**
 * The `cove` block a scripted role plays from. @throws {ConfigError} for a τ² task (no constraints to play from),
 * saying what to use instead.
 */
export function coveBlockFor(task: RunTask, role: string): CoveBlock {
  if (task.cove === undefined) {
    throw new ConfigError(
      `task ${task.id} has no cove block: ${role} needs tasks made by \`cove tasks\` (their constraints); ` +
        'τ² tasks need a model-played agent and user (--agent openai:<model> --user openai:<model>)',
    );
  }
  return task.cove;
}

/** How each role is played: the domain's scripted roles, or a model behind an OpenAI-compatible API. */
export interface RoleChoice {
  /** `oracle`, or a resolved model config (`model: "openai:<name>"`). */
  readonly agent: 'oracle' | RoleConfig;
  /** `scripted`, or a resolved model config. */
  readonly user: 'scripted' | RoleConfig;
  /** The model playing every tool output (`--tool-outputs model`); absent when the database executes the calls. */
  readonly toolOutputs?: RoleConfig;
}

/**
 * Builds the role factory of a run. Scripted roles need generated tasks (`cove` block); a model agent gets the
 * run's system prompt and tools; a model user gets the user guidelines and the task's τ² scenario (in the JSON
 * style, cove's JSON-user guidelines instead of `userGuidelines`). With a conversation prefix (`--from`) the
 * scripted roles are shown the episode without it and the scripted user bridges into its request; a model user's
 * prompt adds the conversation so far ({@link conversationSoFar}).
 * @throws {ConfigError} for a domain without scripted roles, or a model role without an API key.
 */
export function createRoleFactory(
  domain: Domain,
  choice: RoleChoice,
  context: {
    readonly agentContext: AgentContext;
    readonly userGuidelines: string;
    readonly models: ChatModelOptions;
  },
): RoleFactory {
  const sim = domain.simulation;
  if ((choice.agent === 'oracle' || choice.user === 'scripted') && sim === undefined) {
    throw new ConfigError(`domain ${domain.name} has no oracle agent or scripted user`);
  }
  const agentModel =
    choice.agent === 'oracle' ? undefined : new ChatModel('agent', choice.agent, context.models);
  const userModel =
    choice.user === 'scripted' ? undefined : new ChatModel('user', choice.user, context.models);
  const userStyle: UserStyle | undefined =
    userModel === undefined ? undefined : (userModel.config.style ?? 'stop-token');
  const toolsModel =
    choice.toolOutputs === undefined
      ? undefined
      : new ChatModel('tool_outputs', choice.toolOutputs, context.models);
  const schemas = domain.outputSchemas ?? {};
  if (toolsModel !== undefined) {
    const missing = domain.tools.map((t) => t.name).filter((name) => schemas[name] === undefined);
    if (missing.length > 0) {
      throw new ConfigError(
        `--tool-outputs model: domain ${domain.name} has no output schema for ${missing.join(', ')}, so a model cannot play its tools; use --tool-outputs execute`,
      );
    }
  }
  return {
    ...(toolsModel === undefined
      ? {}
      : {
          toolOutputs: {
            name: toolsModel.config.model,
            create: (task: RunTask) =>
              new ToolModel(toolsModel, context.agentContext.tools, schemas, task.id),
          },
        }),
    agentName: agentModel === undefined ? 'oracle' : agentModel.config.model,
    userName: userModel === undefined ? 'scripted' : userModel.config.model,
    ...(userStyle === undefined ? {} : { userStyle }),
    createAgent: (task, rng, prefix) => {
      if (agentModel !== undefined) return new LlmAgent(agentModel, context.agentContext, task.id);
      const oracle = (sim as NonNullable<typeof sim>).createOracleAgent(
        coveBlockFor(task, 'the oracle agent'),
        rng,
      );
      return prefix === undefined ? oracle : scriptedAgentAfter(oracle, prefix, task.cove?.user_id);
    },
    createUser: (task, rng, prefix) => {
      if (userModel === undefined) {
        const user = (sim as NonNullable<typeof sim>).createScriptedUser(
          coveBlockFor(task, 'the scripted user'),
          rng,
        );
        return prefix === undefined
          ? user
          : scriptedUserAfter(user, prefix, rng.child('prefix'), task.cove?.user_id);
      }
      const scenario = scenarioText(task.user_scenario.instructions, task.user_scenario.persona);
      const guidelines = userStyle === 'json' ? JSON_USER_GUIDELINES : context.userGuidelines;
      const prompt =
        userSystemPrompt(guidelines, scenario) +
        (prefix === undefined ? '' : `\n\n${conversationSoFar(prefix)}`);
      const user =
        userStyle === 'json'
          ? new JsonUser(userModel, prompt, task.id)
          : new LlmUser(userModel, prompt, task.id);
      return prefix === undefined ? user : modelUserAfter(user, prefix);
    },
  };
}

/** The offline roles: the domain's oracle agent and scripted user (docs/design.md §5). */
export function scriptedRoles(domain: Domain): RoleFactory {
  const sim = domain.simulation;
  if (sim === undefined) throw new ConfigError(`domain ${domain.name} has no oracle agent or scripted user`);
  return {
    agentName: 'oracle',
    userName: 'scripted',
    createAgent: (task, rng, prefix) => {
      const oracle = sim.createOracleAgent(coveBlockFor(task, 'the oracle agent'), rng);
      return prefix === undefined ? oracle : scriptedAgentAfter(oracle, prefix, task.cove?.user_id);
    },
    createUser: (task, rng, prefix) => {
      const user = sim.createScriptedUser(coveBlockFor(task, 'the scripted user'), rng);
      return prefix === undefined
        ? user
        : scriptedUserAfter(user, prefix, rng.child('prefix'), task.cove?.user_id);
    },
  };
}
