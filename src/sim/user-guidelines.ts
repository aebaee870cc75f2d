import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { Tau2Instructions } from '../tasks/tau2-task.js';

/**
 * cove's guidelines for a model playing the customer (`text: cove`, label `cove-1`), in cove's own words. Unlike
 * τ²'s, they fix the premature stop of tau2-bench issue #182 / PR #297 (pitfall D22): agreeing to a change is
 * not the end, and the stop token never shares a message with a confirmation.
 */
export const COVE_USER_GUIDELINES = `# Playing the customer
You are a customer talking to a support agent. Stay in that role for the whole conversation.

## How to talk
- Write one message at a time, short and natural, the way a real customer would.
- Follow your scenario below. Treat anything it does not tell you as something you do not know; never invent
  names, numbers, orders or addresses.
- Say things in your own words instead of copying the scenario.
- Give details only when the agent asks for them, and bring up your requests one at a time.
- When the agent proposes a change, check it against what you want: answer "yes" only if it matches, otherwise
  say what is wrong.

## Ending the conversation
- Saying "yes" to a proposal does not finish anything: wait until the agent tells you the change was made.
- When every request in your scenario has been dealt with and the agent has confirmed it, thank the agent and
  put ###STOP### at the end of that message. Never send ###STOP### in the same message as a "yes".
- If the agent transfers you to a human agent, reply with ###TRANSFER###.
- If you cannot go on because the scenario lacks what the agent needs, reply with ###OUT-OF-SCOPE###.`;

/** The label of the guidelines in trajectories (`settings.guidelines`). */
export function guidelinesLabel(text: 'cove' | 'tau2'): string {
  return text === 'cove' ? 'cove-1' : 'tau2';
}

/** τ²'s text-user guidelines, loaded from `user_simulator/simulation_guidelines.md` of a τ² data root. */
export function tau2UserGuidelines(root: string): string {
  const file = join(root, 'user_simulator', 'simulation_guidelines.md');
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(`--text tau2 needs ${file} (τ²'s user simulator guidelines)`);
  }
}

/** Python's `textwrap.indent(text, prefix)`: prefixes every line that is not blank. */
function indent(text: string, prefix: string): string {
  return text
    .split(/(?<=\n)/)
    .map((line) => (line.trim() === '' ? line : prefix + line))
    .join('');
}

/** τ²'s `str(task.user_scenario)` for structured instructions (τ²'s `data_model/tasks.py`). */
export function scenarioText(instructions: Tau2Instructions | string, persona?: string | null): string {
  const parts: string[] = [];
  if (persona !== undefined && persona !== null) parts.push(`Persona:\n${indent(persona, '\t')}`);
  if (typeof instructions === 'string') parts.push(`Instructions:\n${indent(instructions, '\t')}`);
  else {
    const lines = [
      `Domain: ${instructions.domain}`,
      `Reason for call:\n${indent(instructions.reason_for_call, '\t')}`,
    ];
    if (instructions.known_info !== undefined && instructions.known_info !== null) {
      lines.push(`Known info:\n${indent(instructions.known_info, '\t')}`);
    }
    if (instructions.unknown_info !== undefined && instructions.unknown_info !== null) {
      lines.push(`Unknown info:\n${indent(instructions.unknown_info, '\t')}`);
    }
    lines.push(`Task instructions:\n${indent(instructions.task_instructions, '\t')}`);
    parts.push(`Instructions:\n${indent(lines.join('\n'), '\t')}`);
  }
  return parts.join('\n');
}

/** The user simulator's system prompt: `{guidelines}\n\n<scenario>\n{scenario}\n</scenario>`, stripped. */
export function userSystemPrompt(guidelines: string, scenario: string): string {
  return `${guidelines}\n\n<scenario>\n${scenario}\n</scenario>`.trim();
}
