import { ToolError } from '../core/errors.js';
import { pyJsonDumps } from '../core/py-json.js';
import { isPyDict, type PyValue } from '../core/py-value.js';
import type { ToolContext, ToolOutput, ToolResult, ToolSpec } from './tool.js';

/** Serialisations of model dumps; cached dumps are shared immutable objects, so their text is reused. */
const texts = new WeakMap<object, string>();

function serialize(output: Exclude<ToolOutput, string>): string {
  if (output === null || typeof output !== 'object') return pyJsonDumps(output);
  let text = texts.get(output);
  if (text === undefined) {
    text = pyJsonDumps(output);
    texts.set(output, text);
  }
  return text;
}

/** Counts calls whose tool body failed with something other than a {@link ToolError} (a cove bug). */
export interface DispatchStats {
  internalErrors: number;
}

/**
 * Python's message for a bad keyword call, e.g.
 * `RetailTools.get_user_details() missing 1 required positional argument: 'user_id'`.
 */
export function bindArguments(
  toolkitName: string,
  tool: ToolSpec,
  args: ReadonlyMap<string, PyValue>,
): Record<string, PyValue> {
  const where = `${toolkitName}.${tool.name}()`;
  const bound: Record<string, PyValue> = {};
  const names = new Set(tool.params.map((p) => p.name));
  for (const [key, value] of args) {
    if (!names.has(key)) throw new ToolError(`${where} got an unexpected keyword argument '${key}'`);
    bound[key] = value;
  }
  const missing = tool.params.filter((p) => !args.has(p.name)).map((p) => `'${p.name}'`);
  if (missing.length > 0) {
    const plural = missing.length === 1 ? 'argument' : 'arguments';
    const list =
      missing.length <= 2
        ? missing.join(' and ')
        : `${missing.slice(0, -1).join(', ')}, and ${missing[missing.length - 1]}`;
    throw new ToolError(`${where} missing ${missing.length} required positional ${plural}: ${list}`);
  }
  return bound;
}

/**
 * τ² calls `Environment.make_tool_call(tool_name, requestor=..., **arguments)`, so arguments named `requestor`,
 * `tool_name` or `self` collide with its own parameters before the tool is looked up (CPython 3.11 messages).
 */
function checkDispatchClash(args: ReadonlyMap<string, PyValue>): void {
  if (args.has('requestor')) {
    throw new ToolError(
      "tau2.environment.environment.Environment.make_tool_call() got multiple values for keyword argument 'requestor'",
    );
  }
  for (const name of args.keys()) {
    if (name === 'self' || name === 'tool_name') {
      throw new ToolError(`Environment.make_tool_call() got multiple values for argument '${name}'`);
    }
  }
}

/**
 * Executes one tool call the way τ²'s `Environment.get_response` does (τ²'s `Environment.get_response`):
 * unknown tool → `Error: Tool '<name>' not found.`; Python-style argument binding errors; a {@link ToolError}
 * becomes `Error: <message>`; a string result is returned as is, anything else as Python `json.dumps` text.
 * Arguments are passed raw (never coerced). Nothing is thrown: an unexpected exception is reported as
 * `Error: <message>` with the error flag and counted in `stats.internalErrors`.
 *
 * @param args the decoded `arguments` object of the call; anything but a dict is answered with an error.
 */
export function dispatchToolCall(
  tools: ReadonlyMap<string, ToolSpec>,
  toolkitName: string,
  context: ToolContext,
  name: string,
  args: PyValue,
  stats?: DispatchStats,
): ToolResult {
  try {
    if (!isPyDict(args)) throw new ToolError('tool arguments must be a JSON object');
    checkDispatchClash(args);
    const tool = tools.get(name);
    if (tool === undefined) throw new ToolError(`Tool '${name}' not found.`);
    const output = tool.run(context, bindArguments(toolkitName, tool, args));
    return { content: typeof output === 'string' ? output : serialize(output), error: false };
  } catch (e) {
    if (e instanceof ToolError) return { content: `Error: ${e.message}`, error: true };
    if (stats !== undefined) stats.internalErrors++;
    return { content: `Error: ${e instanceof Error ? e.message : String(e)}`, error: true };
  }
}
