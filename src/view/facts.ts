/**
 * The compact facts the viewer keeps in memory per episode (a few hundred bytes each), so a run of 100,000
 * episodes can be filtered, sorted and charted without holding its records; the records themselves are read
 * from the file by offset when a page or an episode is shown.
 */
export interface EpisodeFacts {
  /** Position of the record in its source: 0-based line of a JSONL file, or simulation index of a results.json. */
  readonly line: number;
  readonly id: string;
  readonly taskId: string;
  /** Index of the task in the run's tasks.json (`task_index`), or `null` when unknown. */
  readonly taskIndex: number | null;
  readonly domain: string;
  readonly trial: number;
  readonly agent: string;
  readonly user: string;
  /** CoVe score S (`verification.score`), `null` for records without a verification (τ² results). */
  readonly score: number | null;
  readonly stateMatch: boolean | null;
  /** The reward of the record's evaluation (`evaluation.reward`, or τ²'s reward), `null` when not evaluated. */
  readonly reward: number | null;
  /** Passed: kept for SFT (cove records) or reward 1 (τ² simulations). */
  readonly passed: boolean;
  /**
   * Kept for SFT by cove's rule (score 1, stateMatch — or reward 1 for a record graded by another evaluator — no
   * invalid or unknown tool call, no leak); `null` for τ² results.
   */
  readonly sft: boolean | null;
  readonly termination: string;
  /** Failure cause (summary.json's attribution), `null` when none was recorded. */
  readonly failure: string | null;
  /** Constraint kinds of the episode (from its verification), each once. */
  readonly kinds: readonly string[];
  /** Number of constraints (k), `null` when unknown. */
  readonly k: number | null;
  /** Task difficulty from tasks.json (`cove.difficulty`), `null` when unknown. */
  readonly difficulty: string | null;
  readonly userTurns: number;
  readonly messages: number;
  readonly toolCalls: number;
  readonly redundant: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  readonly retries: number;
}

/** A line of the file that is not a readable record, kept so the page can show it as such. */
export interface MalformedLine {
  readonly line: number;
  /** Why it could not be read (JSON syntax error, missing field, …). */
  readonly reason: string;
}

/** What the tasks file says of one task (by `task_index`). */
export interface TaskFacts {
  readonly difficulty: string | null;
  readonly kinds: readonly string[];
  readonly k: number;
}

const num = (v: unknown, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * Shares repeated strings and kind lists between facts (agent, user, termination, failure, kinds: a handful of
 * distinct values over a whole run), so a hundred thousand facts hold one copy of each.
 */
class Interner {
  readonly #strings = new Map<string, string>();
  readonly #lists = new Map<string, readonly string[]>();

  str(s: string): string {
    const known = this.#strings.get(s);
    if (known !== undefined) return known;
    if (this.#strings.size < 100_000) this.#strings.set(s, s);
    return s;
  }

  list(items: readonly string[]): readonly string[] {
    const key = items.join('\u0000');
    const known = this.#lists.get(key);
    if (known !== undefined) return known;
    const list = Object.freeze(items.map((s) => this.str(s)));
    if (this.#lists.size < 100_000) this.#lists.set(key, list);
    return list;
  }
}

const interner = new Interner();

/** The shared copy of a list of constraint kinds (facts with the same kinds hold the same frozen list). */
export function sharedKinds(items: readonly string[]): readonly string[] {
  return interner.list(items);
}

/** Message counts of a conversation: user turns, messages and tool results. */
export interface MessageCounts {
  readonly userTurns: number;
  readonly messages: number;
  readonly toolCalls: number;
}

/** Counts the messages of a parsed `messages` array (tool calls = `role: "tool"` results, as summary.json). */
export function countMessages(messages: unknown): MessageCounts {
  const list = Array.isArray(messages) ? messages : [];
  let userTurns = 0;
  let toolCalls = 0;
  for (const m of list) {
    const role = obj(m).role;
    if (role === 'user') userTurns++;
    else if (role === 'tool') toolCalls++;
  }
  return { userTurns, messages: list.length, toolCalls };
}

/**
 * Checks that a value is a cove trajectory record as far as the viewer needs it.
 * @returns a reason naming the first missing or ill-typed field, or `undefined` when it is usable.
 */
export function recordProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const r = value as Record<string, unknown>;
  if (typeof r.id !== 'string') return 'field id: missing or not a string';
  if (typeof r.task_id !== 'string') return 'field task_id: missing or not a string';
  if (typeof r.termination_reason !== 'string') return 'field termination_reason: missing or not a string';
  const v = r.verification;
  if (v !== undefined && (typeof v !== 'object' || v === null)) return 'field verification: not an object';
  if (v === undefined && r.evaluation === undefined) return 'field verification: missing';
  if (v !== undefined && typeof (v as Record<string, unknown>).score !== 'number')
    return 'field verification.score: missing or not a number';
  return undefined;
}

/**
 * The facts of a cove trajectory record, from its fields (every field but `messages` and `tools`) and its
 * message counts; `task` adds the difficulty from tasks.json. Mirrors `keptForSft` of the run code for `sft`.
 */
export function coveFacts(
  line: number,
  r: Record<string, unknown>,
  counts: MessageCounts,
  task: TaskFacts | undefined,
): EpisodeFacts {
  const v = obj(r.verification);
  const evaluation = obj(r.evaluation);
  const usage = obj(r.usage);
  const constraints = Array.isArray(v.constraints) ? v.constraints.map(obj) : [];
  const hasVerification = r.verification !== undefined;
  const score = hasVerification ? num(v.score) : null;
  const stateMatch = hasVerification ? v.stateMatch === true : null;
  // the reward of the record's evaluation (design §10); records without one show their score instead
  const reward = typeof evaluation.reward === 'number' ? evaluation.reward : null;
  // cove's rule (keptForSft); a record graded only by another evaluator (τ² tasks, design §10) needs reward 1
  // a record whose tool outputs a model played is never kept by default (its verification means nothing)
  const sft =
    r.tool_outputs !== 'model' &&
    (hasVerification ? score === 1 && stateMatch === true : reward === 1) &&
    num(r.invalid_tool_arguments) === 0 &&
    num(r.unknown_tool_calls) === 0 &&
    num(r.leaks) === 0;
  const kinds = interner.list([
    ...new Set(constraints.length > 0 ? constraints.map((c) => str(c.kind)) : (task?.kinds ?? [])),
  ]);
  return {
    line,
    id: str(r.id),
    taskId: str(r.task_id),
    taskIndex: typeof r.task_index === 'number' ? r.task_index : null,
    domain: interner.str(str(r.domain, 'unknown')),
    trial: num(r.trial),
    agent: interner.str(str(r.agent)),
    user: interner.str(str(r.user)),
    score,
    stateMatch,
    reward,
    passed: sft,
    sft,
    termination: interner.str(str(r.termination_reason, 'unknown')),
    failure: typeof r.failure === 'string' ? interner.str(r.failure) : null,
    kinds,
    k: constraints.length > 0 ? constraints.length : (task?.k ?? null),
    difficulty: task?.difficulty ?? null,
    userTurns: counts.userTurns,
    messages: counts.messages,
    toolCalls: counts.toolCalls,
    redundant: Array.isArray(v.redundant) ? v.redundant.length : 0,
    promptTokens: num(usage.prompt_tokens),
    completionTokens: num(usage.completion_tokens),
    costUsd: num(usage.cost_usd),
    retries: num(usage.retries),
  };
}

/**
 * Reads the per-task facts of a cove tasks.json value (`cove.difficulty`, constraint kinds, k), by position
 * (the `task_index` of trajectory records). Tasks without a `cove` block give `undefined` entries.
 */
export function tasksFacts(tasks: unknown): (TaskFacts | undefined)[] {
  if (!Array.isArray(tasks)) return [];
  return tasks.map((t) => {
    const cove = obj(obj(t).cove);
    if (Object.keys(cove).length === 0) return undefined;
    const constraints = Array.isArray(cove.constraints) ? cove.constraints.map(obj) : [];
    return {
      difficulty: typeof cove.difficulty === 'string' ? cove.difficulty : null,
      kinds: [...new Set(constraints.map((c) => str(c.kind)))],
      k: constraints.length,
    };
  });
}
