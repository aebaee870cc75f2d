import type { ChatModel } from '../llm/chat-model.js';
import type { ChatMessage } from '../sim/messages.js';

/**
 * τ²'s NL-assertion judge (τ²'s `NLAssertionsEvaluator`; docs/tau2-notes.md): one chat call with the transcript
 * (`"{role}: {content}"` per message, tool messages included) and the assertions, answered with JSON
 * `{"results": [{"expectedOutcome", "reasoning", "metExpectation"}]}`. Reward 1 iff every returned
 * `metExpectation` is true. τ²'s quirks are kept in `parity` and listed in `quirks`: an empty `results` list passes
 * (τ² issue #554) and the number of verdicts is not checked. A judge that fails (unreachable, times out after its
 * retries, returns text that is not that JSON) gives reward `null` with the reason in `error` — never a pass.
 * The prompt is cove's own wording of τ²'s instructions.
 */

/** One verdict, named as τ²'s `NLAssertionCheck`. */
export interface NlVerdict {
  readonly nl_assertion: string;
  readonly met: boolean;
  readonly justification: string;
}

/** The judge's answer on one episode. */
export interface Judgment {
  readonly reward: number | null;
  readonly nl_assertions: readonly NlVerdict[] | null;
  /** The judge's raw reply text (kept so noisy verdicts can be audited; τ² issue #436). */
  readonly raw: string | null;
  readonly model: string;
  readonly error?: string;
  /** τ² quirks that decided this reward (e.g. an empty results list passing). */
  readonly quirks: readonly string[];
}

const SYSTEM = [
  'You review a conversation between a customer-service agent and a customer, and decide for each expected',
  'outcome listed whether the conversation meets it.',
  'Answer with JSON only, of this shape:',
  '{"results": [{"expectedOutcome": "<the outcome, as given>", "reasoning": "<one or two sentences>",',
  '"metExpectation": true or false}]}',
  'Give one entry per expected outcome, in the order given.',
].join('\n');

/** A Python `repr` of a list of strings (τ² puts the assertions into the prompt this way). */
function pyListRepr(items: readonly string[]): string {
  const one = (s: string) => {
    const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
    const body = s
      .replaceAll('\\', '\\\\')
      .replaceAll('\n', '\\n')
      .replaceAll('\r', '\\r')
      .replaceAll('\t', '\\t')
      .replaceAll(quote, `\\${quote}`);
    return `${quote}${body}${quote}`;
  };
  return `[${items.map(one).join(', ')}]`;
}

/** The transcript as the judge reads it: one `role: content` line per message (system prompt left out). */
export function judgeTranscript(messages: readonly ChatMessage[]): string {
  return messages
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role}: ${m.content ?? ''}`)
    .join('\n');
}

/** Pulls the JSON object out of a reply (a bare object, or one inside a ``` fence). */
function parseReply(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  return JSON.parse((fenced?.[1] ?? text).trim());
}

/**
 * Asks `model` to judge `assertions` on `messages`. No assertions → reward 1 without a call (as τ²).
 * Never throws for a failing judge: the failure is the `error` of a `null` judgment.
 */
export async function judgeNlAssertions(
  model: ChatModel,
  taskId: string,
  messages: readonly ChatMessage[],
  assertions: readonly string[],
  signal?: AbortSignal,
): Promise<Judgment> {
  const name = model.config.model;
  if (assertions.length === 0) return { reward: 1, nl_assertions: [], raw: null, model: name, quirks: [] };
  const user =
    `Conversation:\n${judgeTranscript(messages)}\n\nExpected outcomes:\n${pyListRepr(assertions)}\n\n` +
    'Judge each expected outcome.';
  let raw: string;
  try {
    const reply = await model.complete(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: user },
      ],
      taskId,
      undefined,
      signal,
    );
    raw = reply.content ?? '';
  } catch (e) {
    return {
      reward: null,
      nl_assertions: null,
      raw: null,
      model: name,
      error: `judge call failed: ${(e as Error).message}`,
      quirks: [],
    };
  }
  let results: unknown;
  try {
    results = (parseReply(raw) as { results?: unknown }).results;
  } catch (e) {
    return {
      reward: null,
      nl_assertions: null,
      raw,
      model: name,
      error: `judge reply is not JSON: ${(e as Error).message}`,
      quirks: [],
    };
  }
  if (!Array.isArray(results)) {
    return {
      reward: null,
      nl_assertions: null,
      raw,
      model: name,
      error: 'judge reply has no "results" list',
      quirks: [],
    };
  }
  const verdicts: NlVerdict[] = [];
  for (const [i, r] of results.entries()) {
    const entry = r as { expectedOutcome?: unknown; reasoning?: unknown; metExpectation?: unknown };
    if (entry === null || typeof entry !== 'object' || typeof entry.metExpectation !== 'boolean') {
      return {
        reward: null,
        nl_assertions: null,
        raw,
        model: name,
        error: `judge reply results[${i}].metExpectation is not true or false`,
        quirks: [],
      };
    }
    verdicts.push({
      nl_assertion: String(entry.expectedOutcome ?? ''),
      met: entry.metExpectation,
      justification: String(entry.reasoning ?? ''),
    });
  }
  const quirks: string[] = [];
  if (verdicts.length === 0) quirks.push('an empty results list passes (τ² issue #554, kept for parity)');
  else if (verdicts.length !== assertions.length) {
    quirks.push(
      `${verdicts.length} verdicts for ${assertions.length} assertions: the count is not checked (τ² issue #554, kept for parity)`,
    );
  }
  return { reward: verdicts.every((v) => v.met) ? 1 : 0, nl_assertions: verdicts, raw, model: name, quirks };
}

/**
 * Folds a judgment into a τ² report whose NL_ASSERTION component was left `null`: the reward becomes the
 * product over the basis with the judge's verdict (still `null` when the judge failed or another component is
 * missing).
 */
export function withJudgment(
  report: Readonly<Record<string, unknown>>,
  judgment: Judgment,
): { reward: number | null; report: Record<string, unknown> } {
  const breakdown = { ...((report.reward_breakdown ?? {}) as Record<string, number | null>) };
  breakdown.NL_ASSERTION = judgment.reward;
  const notEvaluated = ((report.not_evaluated ?? []) as { component: string; reason: string }[]).filter(
    (n) => n.component !== 'NL_ASSERTION',
  );
  if (judgment.reward === null) {
    notEvaluated.push({ component: 'NL_ASSERTION', reason: judgment.error ?? 'the judge gave no verdict' });
  }
  const values = Object.values(breakdown);
  const reward = values.some((v) => v === null)
    ? null
    : values.reduce<number>((a, v) => a * (v as number), 1);
  return {
    reward,
    report: {
      ...report,
      reward,
      reward_breakdown: breakdown,
      not_evaluated: notEvaluated,
      nl_assertions: judgment.nl_assertions,
      judge: judgment,
    },
  };
}
