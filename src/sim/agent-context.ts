import type { OpenAiTool } from '../env/openai-tools.js';

/** `cove`: policy, instructions and tool descriptions in cove's words; `tau2`: τ²'s, loaded at run time. */
export type TextSetting = 'cove' | 'tau2';

/** What an agent is given besides the conversation: its system prompt and its tools. */
export interface AgentContext {
  readonly systemPrompt: string;
  readonly tools: readonly OpenAiTool[];
}
