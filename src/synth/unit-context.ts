import type { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { formatIssuePath } from '../core/schema-helpers.js';
import type { ApiMessage, ChatModel } from '../llm/chat-model.js';
import {
  type ChatJsonOptions,
  type ChatOptions,
  type JsonReply,
  StageJsonError,
  type StageReply,
  type UnitContext,
} from './stage.js';

/** Tokens, cost and calls of a unit's model calls (summed into summary.json `usage`). */
export interface StageUsage {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  retries: number;
}

export const zeroUsage = (): StageUsage => ({
  calls: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  cost_usd: 0,
  retries: 0,
});

/** What a unit leaves behind besides its records: usage, counters and notes. */
export interface UnitTally {
  readonly usage: StageUsage;
  readonly counts: Record<string, number>;
  readonly notes: string[];
}

/**
 * The JSON value in a model's reply: the whole text, or the inside of a ```json fence, or the span from the first
 * `{`/`[` to the last `}`/`]` (models often wrap JSON in prose). Parsed with JSON.parse only.
 * @returns the value, or a reason it could not be read
 */
export function extractJson(text: string): { value: unknown } | { error: string } {
  const candidates: string[] = [text.trim()];
  const fence = /```(?:json)?\s*\n?([\s\S]*?)```/.exec(text);
  if (fence?.[1] !== undefined) candidates.push(fence[1].trim());
  const open = text.search(/[[{]/);
  const close = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (open !== -1 && close > open) candidates.push(text.slice(open, close + 1));
  let error = 'the reply is empty';
  for (const c of candidates) {
    if (c === '') continue;
    try {
      return { value: JSON.parse(c) };
    } catch (e) {
      error = `the reply is not JSON (${(e as Error).message})`;
    }
  }
  return { error };
}

function pickUsage(u: StageUsage | Omit<StageUsage, 'calls'>): Omit<StageUsage, 'calls'> {
  return {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    cost_usd: u.cost_usd,
    retries: u.retries,
  };
}

/** The context a unit runs with (see {@link UnitContext}); `tally` holds what it recorded. */
export function createUnitContext(args: {
  stage: string;
  settings: Readonly<Record<string, unknown>>;
  seed: number;
  unitKey: string;
  label: string;
  model: ChatModel | undefined;
  signal?: AbortSignal;
  /** Told the usage of each model call as soon as it returns (before the unit finishes). */
  onCall?: (usage: StageUsage) => void;
}): UnitContext & { readonly tally: UnitTally } {
  const tally: UnitTally = { usage: zeroUsage(), counts: {}, notes: [] };
  const jsonRetries = Number(args.settings.json_retries ?? 2);
  const count = (name: string, n = 1) => {
    tally.counts[name] = (tally.counts[name] ?? 0) + n;
  };
  const chat = async (messages: readonly ApiMessage[], options: ChatOptions = {}): Promise<StageReply> => {
    if (args.model === undefined)
      throw new ConfigError(`stage ${args.stage} needs a model: give --model openai:<model>`);
    const done = await args.model.complete(messages, options.label ?? args.label, undefined, args.signal);
    const u = tally.usage;
    u.calls++;
    u.prompt_tokens += done.usage.prompt_tokens;
    u.completion_tokens += done.usage.completion_tokens;
    u.cost_usd += done.usage.cost_usd;
    u.retries += done.usage.retries;
    args.onCall?.({ calls: 1, ...pickUsage(done.usage) });
    return {
      content: done.content ?? '',
      ...(done.reasoning === undefined ? {} : { reasoning: done.reasoning }),
    };
  };
  return {
    stage: args.stage,
    settings: args.settings,
    seed: args.seed,
    rng: new Rng(args.seed).child('synth', args.stage, args.unitKey),
    label: args.label,
    hasModel: args.model !== undefined,
    chat,
    async chatJson<S extends z.ZodType>(
      messages: readonly ApiMessage[],
      schema: S,
      options: ChatJsonOptions = {},
    ): Promise<JsonReply<z.output<S>>> {
      const history: ApiMessage[] = [...messages];
      for (let attempt = 0; ; attempt++) {
        const reply = await chat(history, options);
        history.push({ role: 'assistant', content: reply.content });
        const reason = judgeReply(reply.content, schema, options.check);
        if ('value' in reason) return { value: reason.value, messages: history };
        if (attempt >= jsonRetries) {
          count('json_failures');
          throw new StageJsonError(args.stage, options.label ?? args.label, reason.error);
        }
        count('json_retries');
        history.push({
          role: 'user',
          content: `That reply cannot be used: ${reason.error}. Answer again with only the JSON asked for.`,
        });
      }
    },
    count,
    note(text) {
      tally.notes.push(text);
    },
    tally,
  };
}

function judgeReply<S extends z.ZodType>(
  content: string,
  schema: S,
  check: ((value: unknown) => string | undefined) | undefined,
): { value: z.output<S> } | { error: string } {
  const parsed = extractJson(content);
  if ('error' in parsed) return parsed;
  const result = schema.safeParse(parsed.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { error: `${formatIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}` };
  }
  const why = check?.(result.data);
  return why === undefined ? { value: result.data } : { error: why };
}
