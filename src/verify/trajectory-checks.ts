import { schemaMismatch } from '../domains/sql/output-schema.js';
import type { OpenAiTool } from '../env/openai-tools.js';
import type { ChatMessage } from '../sim/messages.js';

/**
 * Deterministic checks of a trajectory that need no gold state (docs/descriptive-tasks.md): every tool call names
 * a tool the agent was given and its arguments are a JSON object valid against that tool's parameter schema
 * (required parameters present, no unknown ones, types as declared), and the episode ended by a stop (the user's
 * or the agent's), not by a step or error limit or a failing role. A rubric judge's verdict is only ever
 * combined with these by AND: no judgment can turn one of these failures into a pass.
 */

/** Terminations that count as a normal end of an episode. */
export const STOP_TERMINATIONS: readonly string[] = ['user_stop', 'agent_stop'];

/** The result: `passed` iff `failures` is empty; each failure names the message and the call. */
export interface TrajectoryChecks {
  readonly passed: boolean;
  readonly failures: readonly string[];
  readonly tool_calls: number;
}

function argumentProblem(args: unknown, parameters: Readonly<Record<string, unknown>>): string | undefined {
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    return 'arguments are not a JSON object';
  const properties = (parameters.properties ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(args).filter((k) => !(k in properties));
  if (unknown.length > 0) return `unknown argument ${unknown.map((k) => `'${k}'`).join(', ')}`;
  const mismatch = schemaMismatch(args, { ...parameters, type: 'object' });
  return mismatch === undefined ? undefined : mismatch.replace(/^\$\./, 'argument ');
}

/**
 * Checks `messages` (OpenAI chat shape) against `tools` and the episode's `termination` reason.
 * Pure: the same inputs give the same failures, in message order.
 */
export function checkTrajectory(input: {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly OpenAiTool[];
  readonly termination: string;
}): TrajectoryChecks {
  const byName = new Map(input.tools.map((t) => [t.function.name, t.function.parameters]));
  const failures: string[] = [];
  let calls = 0;
  input.messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    for (const call of m.tool_calls ?? []) {
      calls++;
      const where = `message ${i}, call ${call.id} ${call.function.name}`;
      const parameters = byName.get(call.function.name);
      if (parameters === undefined) {
        failures.push(`${where}: no tool of that name was given to the agent`);
        continue;
      }
      let args: unknown;
      try {
        args = JSON.parse(call.function.arguments);
      } catch (e) {
        failures.push(`${where}: arguments are not valid JSON (${(e as Error).message})`);
        continue;
      }
      const problem = argumentProblem(args, parameters);
      if (problem !== undefined) failures.push(`${where}: ${problem}`);
    }
  });
  if (!STOP_TERMINATIONS.includes(input.termination)) {
    failures.push(`the episode ended by ${input.termination}, not by a stop`);
  }
  return { passed: failures.length === 0, failures, tool_calls: calls };
}
