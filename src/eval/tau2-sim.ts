import { InputFileError } from '../core/errors.js';
import { isPyDict, type PyDict, type PyValue } from '../core/py-value.js';

/**
 * One simulation of a τ² results file read losslessly (ints stay ints, floats floats, so replayed tool calls get
 * exactly the arguments τ² sent): its tool calls in order, each with the tool message that answered it, and the
 * assistant texts (for the COMMUNICATE check).
 */
export interface Tau2SimView {
  readonly index: number;
  readonly id: string;
  readonly taskId: string;
  readonly termination: string;
  readonly trial: number | null;
  readonly calls: readonly RecordedCall[];
  readonly agentTexts: readonly string[];
  /** Every message's role and text, in order (what an NL-assertion judge reads). */
  readonly transcript: readonly { readonly role: string; readonly content: string | null }[];
  /** `reward_info` as recorded (null when absent). */
  readonly rewardInfo: PyDict | null;
}

/** A recorded tool call and its recorded answer. */
export interface RecordedCall {
  readonly name: string;
  readonly arguments: PyValue;
  readonly content: string;
  readonly error: boolean;
  readonly requestor: string;
}

/** `d[key]` of a Python-JSON dict, `undefined` for anything else. */
export function pyGet(d: PyValue | undefined, key: string): PyValue | undefined {
  return d !== undefined && isPyDict(d) ? d.get(key) : undefined;
}

/**
 * The simulations of a lossless results document (`readJsonFile`) as {@link Tau2SimView}s.
 * @throws {InputFileError} naming the file and simulation when a tool call has no answer.
 */
export function simulationViews(file: string, doc: PyValue): Tau2SimView[] {
  const sims = pyGet(doc, 'simulations');
  if (!Array.isArray(sims)) throw new InputFileError(file, '$.simulations', 'not a list');
  return sims.map((sim, index) => {
    const where = `$.simulations[${index}]`;
    const messages = pyGet(sim, 'messages');
    if (!Array.isArray(messages)) throw new InputFileError(file, `${where}.messages`, 'not a list');
    const answers = new Map<string, PyValue>();
    for (const m of messages) if (pyGet(m, 'role') === 'tool') answers.set(String(pyGet(m, 'id')), m);
    const calls: RecordedCall[] = [];
    const agentTexts: string[] = [];
    messages.forEach((m, j) => {
      const content = pyGet(m, 'content');
      if (pyGet(m, 'role') === 'assistant' && typeof content === 'string') agentTexts.push(content);
      const toolCalls = pyGet(m, 'tool_calls');
      if (!Array.isArray(toolCalls)) return;
      toolCalls.forEach((c, k) => {
        const answer = answers.get(String(pyGet(c, 'id')));
        if (answer === undefined) {
          throw new InputFileError(
            file,
            `${where}.messages[${j}].tool_calls[${k}].id`,
            `tool call '${String(pyGet(c, 'id'))}' has no tool message answering it`,
          );
        }
        const answerContent = pyGet(answer, 'content');
        calls.push({
          name: String(pyGet(c, 'name')),
          arguments: pyGet(c, 'arguments') ?? new Map(),
          content: typeof answerContent === 'string' ? answerContent : '',
          error: pyGet(answer, 'error') === true,
          requestor: String(pyGet(c, 'requestor') ?? 'assistant'),
        });
      });
    });
    const ri = pyGet(sim, 'reward_info');
    const trial = pyGet(sim, 'trial');
    return {
      index,
      id: String(pyGet(sim, 'id')),
      taskId: String(pyGet(sim, 'task_id')),
      termination: String(pyGet(sim, 'termination_reason')),
      trial: typeof trial === 'number' ? trial : null,
      calls,
      agentTexts,
      transcript: messages.map((m) => {
        const c = pyGet(m, 'content');
        return { role: String(pyGet(m, 'role')), content: typeof c === 'string' ? c : null };
      }),
      rewardInfo: ri !== undefined && isPyDict(ri) ? ri : null,
    };
  });
}
