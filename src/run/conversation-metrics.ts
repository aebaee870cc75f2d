import { Rng } from '../core/rng.js';
import type { ChatMessage } from '../sim/messages.js';
import {
  hasClarifyingQuestion,
  measuredUserText,
  sentences,
  sentenceTemplate,
  tokenize,
  USER_TEXT_CUES,
  valueWords,
} from './conversation-cues.js';

/**
 * What the measures read of one conversation: a trajectory record has these fields (docs/design.md §6); a τ²
 * simulation gets them from `tau2Conversation`.
 */
export interface ConversationRecord {
  /** Orders the conversations before sampling, so the measures do not depend on the order records were read. */
  readonly id: string;
  readonly messages: readonly ChatMessage[];
  /** Names of the user behaviours the scripted user enacted (absent for model-played users and τ² results). */
  readonly enacted_events?: readonly string[];
}

/** A share of conversations, counted from the enacted events and from the text. */
export interface CountedBothWays {
  /** Share of the conversations that record `enacted_events` (null when none does). */
  readonly from_events: number | null;
  /** Share of all conversations, from the text (regex sets in docs/conversations.md). */
  readonly from_text: number;
}

/** The conversation measures of a run (`summary.json` → `conversation`; definitions in docs/conversations.md). */
export interface ConversationMetrics {
  readonly conversations: number;
  readonly user_messages: number;
  readonly user_tokens: number;
  /** Mean over {@link DISTINCT2_SAMPLES} samples of ≥ {@link DISTINCT2_SAMPLE_TOKENS} user tokens: distinct ÷ all bigrams. */
  readonly distinct_2_user: number;
  /** Share of user messages identical to a user message of another conversation. */
  readonly repeated_user_messages: number;
  /** Share of conversations with an agent text turn holding a clarifying question. */
  readonly clarifying_question: number;
  readonly partial_information: CountedBothWays;
  readonly change_of_mind: CountedBothWays;
  readonly push_back: CountedBothWays;
  /** From the text: a `transfer_to_human_agents` call. */
  readonly transfer: CountedBothWays;
  /** Share of conversations with a tool result starting with `Error`. */
  readonly tool_error: number;
  /** The most frequent user sentence template, its share of all user sentences, and how many templates there are. */
  readonly top_user_template: {
    readonly template: string;
    readonly share: number;
    readonly sentences: number;
    readonly distinct: number;
  };
  readonly tools_used: { readonly count: number; readonly names: readonly string[] };
}

/** Samples averaged for distinct-2. */
export const DISTINCT2_SAMPLES = 30;
/** User-text tokens a distinct-2 sample holds at least (whole conversations are added until it does). */
export const DISTINCT2_SAMPLE_TOKENS = 4000;

/** Enacted event names that count for each behaviour (the `cove` block's events, issue 13 item 1). */
export const EVENT_GROUPS = {
  partial_information: ['partial_info', 'wrong_detail', 'wrong_order_id', 'ambiguous_reference'],
  change_of_mind: ['change_of_mind', 'reject_proposal'],
  push_back: ['push_back'],
  transfer: ['transfer'],
} as const;

/** τ²'s tool for a hand-off to a human (Retail and Airline policies). */
export const TRANSFER_TOOL = 'transfer_to_human_agents';

const round = (x: number) => Number(x.toFixed(4));
const share = (n: number, of: number) => (of === 0 ? 0 : round(n / of));

interface Prepared {
  /** Measured user texts, empty ones dropped. */
  readonly userTexts: string[];
  readonly userTokens: string[][];
  readonly agentTexts: string[];
  readonly toolNames: string[];
  readonly toolResults: string[];
  readonly values: Set<string>;
  readonly events: readonly string[] | undefined;
}

function prepare(r: ConversationRecord, cache: Map<string, string[]>): Prepared {
  const userTexts: string[] = [];
  const agentTexts: string[] = [];
  const toolNames: string[] = [];
  const toolResults: string[] = [];
  const values = new Set<string>();
  for (const m of r.messages) {
    // a conversation prefix (`--from`) was given, not generated: the measures cover the episode's own messages
    if (m.cove_prefix === true) continue;
    if (m.role === 'user') {
      const text = measuredUserText(m.content ?? '');
      if (text !== '') userTexts.push(text);
    } else if (m.role === 'assistant') {
      if (typeof m.content === 'string' && m.content !== '') agentTexts.push(m.content);
      for (const c of m.tool_calls ?? []) {
        toolNames.push(c.function.name);
        valueWords(c.function.arguments, values, cache);
      }
    } else if (m.role === 'tool') {
      const content = m.content ?? '';
      toolResults.push(content);
      if (!content.startsWith('Error')) valueWords(content, values, cache);
    }
  }
  return {
    userTexts,
    userTokens: userTexts.map(tokenize),
    agentTexts,
    toolNames,
    toolResults,
    values,
    events: r.enacted_events,
  };
}

function distinct2(convs: readonly Prepared[], seed: number): number {
  const total = convs.reduce((a, c) => a + c.userTokens.reduce((b, t) => b + t.length, 0), 0);
  if (total === 0) return 0;
  const root = new Rng(seed).child('distinct-2');
  let sum = 0;
  for (let s = 0; s < DISTINCT2_SAMPLES; s++) {
    const order = root.child(s).shuffle(convs);
    const seen = new Set<string>();
    let bigrams = 0;
    let tokens = 0;
    for (const c of order) {
      for (const t of c.userTokens) {
        tokens += t.length;
        for (let i = 1; i < t.length; i++) {
          bigrams++;
          seen.add(`${t[i - 1]} ${t[i]}`);
        }
      }
      if (tokens >= DISTINCT2_SAMPLE_TOKENS) break;
    }
    sum += bigrams === 0 ? 0 : seen.size / bigrams;
  }
  return round(sum / DISTINCT2_SAMPLES);
}

function repeatedShare(convs: readonly Prepared[]): { repeated: number; messages: number } {
  const owners = new Map<string, Set<number>>();
  convs.forEach((c, i) => {
    for (const t of c.userTexts) owners.set(t, (owners.get(t) ?? new Set()).add(i));
  });
  let repeated = 0;
  let messages = 0;
  convs.forEach((c, i) => {
    for (const t of c.userTexts) {
      messages++;
      const o = owners.get(t);
      if (o !== undefined && (o.size > 1 || !o.has(i))) repeated++;
    }
  });
  return { repeated, messages };
}

function topTemplate(convs: readonly Prepared[]): ConversationMetrics['top_user_template'] {
  const counts = new Map<string, number>();
  let total = 0;
  for (const c of convs) {
    for (const text of c.userTexts) {
      for (const s of sentences(text)) {
        const t = sentenceTemplate(s, c.values);
        if (t === '') continue;
        counts.set(t, (counts.get(t) ?? 0) + 1);
        total++;
      }
    }
  }
  let best = '';
  let bestCount = 0;
  // ties go to the template first in code-unit order, so the result does not depend on record order
  for (const [t, n] of counts) if (n > bestCount || (n === bestCount && t < best)) [best, bestCount] = [t, n];
  return { template: best, share: share(bestCount, total), sentences: total, distinct: counts.size };
}

/**
 * The conversation measures of issue 13 item 6 over a set of conversations (docs/conversations.md, "Measures"):
 * distinct-2 of user text (seeded samples from `seed`), repeated user messages, clarifying questions, partial
 * information, changes of mind, push-back and transfers (from enacted events and from text), tool errors, the
 * most frequent user sentence template and the tools used. Shares are of conversations unless named otherwise,
 * rounded to 4 decimals; an empty input gives zeros. Messages of a conversation prefix (`cove_prefix`) are left out. Pure: the same records and seed give the same result, in any
 * order of the records (they are sorted by `id` first).
 */
export function conversationMetrics(records: readonly ConversationRecord[], seed = 0): ConversationMetrics {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const cache = new Map<string, string[]>();
  const convs = sorted.map((r) => prepare(r, cache));
  const n = convs.length;
  const count = (pred: (c: Prepared) => boolean) => convs.filter(pred).length;
  const withEvents = convs.filter((c) => c.events !== undefined);
  const both = (group: readonly string[], fromText: (c: Prepared) => boolean): CountedBothWays => ({
    from_events:
      withEvents.length === 0
        ? null
        : share(withEvents.filter((c) => c.events?.some((e) => group.includes(e))).length, withEvents.length),
    from_text: share(count(fromText), n),
  });
  const userSays = (re: RegExp) => (c: Prepared) => c.userTexts.some((t) => re.test(t));
  const { repeated, messages } = repeatedShare(convs);
  const tools = [...new Set(convs.flatMap((c) => c.toolNames))].sort();
  return {
    conversations: n,
    user_messages: messages,
    user_tokens: convs.reduce((a, c) => a + c.userTokens.reduce((b, t) => b + t.length, 0), 0),
    distinct_2_user: distinct2(convs, seed),
    repeated_user_messages: share(repeated, messages),
    clarifying_question: share(
      count((c) => c.agentTexts.some(hasClarifyingQuestion)),
      n,
    ),
    partial_information: both(EVENT_GROUPS.partial_information, userSays(USER_TEXT_CUES.partial_information)),
    change_of_mind: both(EVENT_GROUPS.change_of_mind, userSays(USER_TEXT_CUES.change_of_mind)),
    push_back: both(EVENT_GROUPS.push_back, userSays(USER_TEXT_CUES.push_back)),
    transfer: both(EVENT_GROUPS.transfer, (c) => c.toolNames.includes(TRANSFER_TOOL)),
    tool_error: share(
      count((c) => c.toolResults.some((t) => t.startsWith('Error'))),
      n,
    ),
    top_user_template: topTemplate(convs),
    tools_used: { count: tools.length, names: tools },
  };
}
