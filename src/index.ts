/**
 * cove's public API: domains and their registry, SQL environments and the steppable episode, evaluators, task
 * synthesis, the run API behind `cove generate`, and the OpenAI-compatible client. Everything here is documented
 * where it is defined; docs/engine.md shows how the parts fit.
 *
 * ```ts
 * import { getDomain, sandboxBase, synthesizeTasks, runTaskEpisode, scriptedRoles } from 'cove';
 * ```
 */

// errors
export { AbortedError, ConfigError, CoveError, InputFileError, ToolError } from './core/errors.js';
export type { PyDict, PyValue } from './core/py-value.js';
export { fromPyValue, toPyValue } from './core/py-value.js';
export { deriveSeed, Rng } from './core/rng.js';
export { agentContext } from './domains/agent-context.js';
// domains
export type { Domain, DomainSandbox, DomainSimulation, DomainTau2, SandboxSize } from './domains/domain.js';
export { sandboxSize } from './domains/domain.js';
export { chooseDomain, domainOfDbValue, domainOfTasks } from './domains/infer-domain.js';
export { baseFromValue, type LoadedDb, loadDbFile, readJsonFile, sandboxBase } from './domains/load-db.js';
export { domainNames, getDomain } from './domains/registry.js';
export { retailDomain } from './domains/retail/index.js';
export { baseFromRows, baseFromSqliteFile, buildBase } from './env/build-base.js';
// environments
export type { DumpStyle, EnvironmentSpec, StateCollection } from './env/environment.js';
export { EnvironmentBase } from './env/environment-base.js';
export { Episode, type ExecutedCall } from './env/episode.js';
export { replayCalls } from './env/replay.js';
export { collectionsFromDdl, collectionsOf, tableCollection } from './env/sql-collections.js';
export type { StateHashes } from './env/state-digest.js';
export type { Semantics, ToolKind, ToolResult, ToolSpec } from './env/tool.js';
// evaluation
export type { Evaluation, EvaluationInput, Evaluator } from './eval/evaluator.js';
export { actionMatches, type Tau2Report, tau2Evaluator, tau2Reward } from './eval/tau2-evaluator.js';
// model endpoints
export { ChatModel, EndpointPool } from './llm/chat-model.js';
export { type CoveConfig, type RoleConfig, readCoveConfig } from './llm/config.js';
export { UsageMeter } from './llm/usage-meter.js';
export { episodeId, type RoleFactory, type RunContext, runTaskEpisode } from './run/episode-runner.js';
// runs
export { type GenerateJob, generate } from './run/generate.js';
export {
  type PrefixRef,
  type PrefixState,
  PrefixStates,
  replayPrefixes,
  withPrefix,
} from './run/prefix-states.js';
export { createRoleFactory, scriptedRoles } from './run/roles.js';
export { type GenerateRunOptions, runGenerate, runId } from './run/run-generate.js';
export { type GenerateIdentity, generateFingerprint } from './run/run-identity.js';
export type { RunSummary } from './run/summary.js';
export type { TaskSource } from './run/task-source.js';
export {
  keptForSft,
  recordReward,
  type SftOptions,
  sftFilter,
  type TrajectoryRecord,
} from './run/trajectory.js';
export type { AgentContext, TextSetting } from './sim/agent-context.js';
// episodes and roles
export {
  type EpisodeLimits,
  type EpisodeOutcome,
  EpisodeSession,
  type ExecutedToolCall,
  type StepResult,
  type TerminationReason,
} from './sim/episode-session.js';
export { LlmAgent } from './sim/llm-agent.js';
export { LlmUser } from './sim/llm-user.js';
export type { AssistantMessage, ChatMessage, ToolCall, ToolMessage } from './sim/messages.js';
export { AGENT_GREETING, STOP_TOKENS } from './sim/messages.js';
export {
  parseToolReply,
  ToolModel,
  type ToolOutputSimulator,
} from './sim/model-tools/tool-model.js';
export { TOOL_MODEL_GUIDELINES } from './sim/model-tools/tool-model-prompt.js';
export { JsonUser, jsonUserReplySchema, parseJsonUserReply } from './sim/model-user/json-user.js';
export { JSON_USER_GUIDELINES } from './sim/model-user/json-user-prompt.js';
export { USER_STYLES, type UserStyle } from './sim/model-user/user-style.js';
export type { ConversationPrefix } from './sim/prefix/conversation-prefix.js';
export { type PrefixEntry, type PrefixFile, readPrefixFile } from './sim/prefix/prefix-file.js';
export type { Agent, AgentTurn, Usage, UserSimulator, UserTurn, VisibleMessage } from './sim/roles.js';
export { RoleError } from './sim/roles.js';
export { runEpisode } from './sim/run-episode.js';
export { COVE_USER_GUIDELINES, scenarioText, userSystemPrompt } from './sim/user-guidelines.js';
// tasks
export type { Constraint, ConstraintKind } from './tasks/constraint.js';
export type { CoveBlock, CoveTask, Difficulty } from './tasks/cove-task.js';
export { type SynthesisOptions, synthesizeTask } from './tasks/sampler.js';
export type { DomainSynthesis, TaskDraft } from './tasks/synthesis.js';
export { synthesizeTasks } from './tasks/synthesize-tasks.js';
export { goldCalls, type RunTask, runTaskFromTau2 } from './tasks/task.js';
export { parseTau2Tasks } from './tasks/tau2-task.js';
export { type CoveEvaluation, coveEvaluator } from './verify/cove-evaluator.js';
export { type Verification, verifyTrajectory } from './verify/verification.js';
export { COVE_VERSION } from './version.js';
