import { type EpisodeFacts, sharedKinds } from './facts.js';

/** Facts fields stored as a table of distinct values and one index per episode (few distinct values per run). */
const DICT = ['domain', 'agent', 'user', 'termination', 'failure', 'difficulty', 'kinds'] as const;
/** Facts fields of numbers, booleans or `null`, stored as float64 columns (`null` as NaN, booleans as 0 and 1). */
const NUM = [
  'line',
  'taskIndex',
  'trial',
  'score',
  'stateMatch',
  'reward',
  'passed',
  'sft',
  'k',
  'userTurns',
  'messages',
  'toolCalls',
  'redundant',
  'promptTokens',
  'completionTokens',
  'costUsd',
  'retries',
] as const satisfies readonly (keyof EpisodeFacts)[];

/** Number of float64 columns and of dictionary columns of {@link FactsColumns}. */
export const NUM_COLUMNS = NUM.length;
export const DICT_COLUMNS = DICT.length;

/**
 * Episode facts laid out by column: what the index sidecar stores (`index-cache.ts`) and what an indexing worker
 * sends back (`index-worker.ts`) — a few typed arrays instead of one object per episode.
 */
export interface FactsColumns {
  readonly count: number;
  /** {@link NUM_COLUMNS} columns of `count` numbers each. */
  readonly numbers: Float64Array<ArrayBuffer>;
  /** {@link DICT_COLUMNS} columns of `count` indexes into `dict` each. */
  readonly at: Int32Array<ArrayBuffer>;
  /** The distinct values of each dictionary column, by field name. */
  readonly dict: Record<string, unknown[]>;
  readonly ids: string[];
  readonly taskIds: string[];
}

/** Lays facts out by column (see {@link FactsColumns}). */
export function encodeFacts(facts: readonly EpisodeFacts[]): FactsColumns {
  const n = facts.length;
  const numbers = new Float64Array(NUM.length * n);
  NUM.forEach((key, c) => {
    for (let i = 0; i < n; i++) {
      const v = (facts[i] as EpisodeFacts)[key];
      numbers[c * n + i] = v === null ? Number.NaN : Number(v);
    }
  });
  const dict: Record<string, unknown[]> = {};
  const at = new Int32Array(DICT.length * n);
  DICT.forEach((key, c) => {
    const ids = new Map<unknown, number>();
    const values: unknown[] = [];
    for (let i = 0; i < n; i++) {
      // kinds lists are shared between facts (facts.ts interns them): keyed by identity, an unshared equal
      // list only adds an equal value
      const value = (facts[i] as EpisodeFacts)[key];
      let k = ids.get(value);
      if (k === undefined) {
        k = values.length;
        ids.set(value, k);
        values.push(value);
      }
      at[c * n + i] = k;
    }
    dict[key] = values;
  });
  return {
    count: n,
    numbers,
    at,
    dict,
    ids: facts.map((f) => f.id),
    taskIds: facts.map((f) => f.taskId),
  };
}

/**
 * The facts of columns laid out by {@link encodeFacts}, each object built in the shape `coveFacts` gives it;
 * `lineBase` is added to every `line` (a worker numbers the lines of its byte range from 0).
 * @throws {Error} when the columns are inconsistent (a damaged sidecar).
 */
export function decodeFacts(columns: FactsColumns, lineBase = 0): EpisodeFacts[] {
  const { count: n, numbers, at } = columns;
  if (columns.ids.length !== n || columns.taskIds.length !== n) throw new Error('ids damaged');
  if (numbers.length !== NUM.length * n || at.length !== DICT.length * n) throw new Error('columns damaged');
  const column = (key: (typeof NUM)[number]) => NUM.indexOf(key) * n;
  const [line, taskIndex, trial, score, stateMatch, reward, passed, sft, k] = NUM.slice(0, 9).map(
    column,
  ) as number[];
  const [userTurns, messages, toolCalls, redundant, prompt, completion, cost, retries] = NUM.slice(9).map(
    column,
  ) as number[];
  const values = DICT.map((key) => {
    const list = columns.dict[key] ?? [];
    return key === 'kinds' ? list.map((v) => sharedKinds(v as string[])) : list;
  });
  const [domain, agent, user, termination, failure, difficulty, kinds] = values as unknown[][];
  const value = (list: unknown[] | undefined, c: number, i: number) => {
    const v = (list as unknown[])[at[c * n + i] as number];
    if (v === undefined) throw new Error('facts value damaged');
    return v;
  };
  const orNull = (v: number) => (Number.isNaN(v) ? null : v);
  const bool = (v: number) => (Number.isNaN(v) ? null : v === 1);
  const facts: EpisodeFacts[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = (c: number) => numbers[(c as number) + i] as number;
    facts[i] = {
      line: lineBase + x(line as number),
      id: columns.ids[i] as string,
      taskId: columns.taskIds[i] as string,
      taskIndex: orNull(x(taskIndex as number)),
      domain: value(domain, 0, i) as string,
      trial: x(trial as number),
      agent: value(agent, 1, i) as string,
      user: value(user, 2, i) as string,
      score: orNull(x(score as number)),
      stateMatch: bool(x(stateMatch as number)),
      reward: orNull(x(reward as number)),
      passed: x(passed as number) === 1,
      sft: bool(x(sft as number)),
      termination: value(termination, 3, i) as string,
      failure: value(failure, 4, i) as string | null,
      kinds: value(kinds, 6, i) as readonly string[],
      k: orNull(x(k as number)),
      difficulty: value(difficulty, 5, i) as string | null,
      userTurns: x(userTurns as number),
      messages: x(messages as number),
      toolCalls: x(toolCalls as number),
      redundant: x(redundant as number),
      promptTokens: x(prompt as number),
      completionTokens: x(completion as number),
      costUsd: x(cost as number),
      retries: x(retries as number),
    };
  }
  return facts;
}

/** Strings packed as one text and the end of each (one string to copy between threads instead of many). */
export interface PackedStrings {
  readonly text: string;
  readonly ends: Int32Array<ArrayBuffer>;
}

export function packStrings(list: readonly string[]): PackedStrings {
  const ends = new Int32Array(list.length);
  let at = 0;
  list.forEach((s, i) => {
    at += s.length;
    ends[i] = at;
  });
  return { text: list.join(''), ends };
}

export function unpackStrings(packed: PackedStrings): string[] {
  const out: string[] = new Array(packed.ends.length);
  let from = 0;
  for (let i = 0; i < packed.ends.length; i++) {
    const to = packed.ends[i] as number;
    out[i] = packed.text.slice(from, to);
    from = to;
  }
  return out;
}
