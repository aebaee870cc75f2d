import { z } from 'zod';
import { InputFileError } from '../core/errors.js';
import { fromPyValue, type PyValue } from '../core/py-value.js';
import { describeIssue, formatIssuePath } from '../core/schema-helpers.js';
import type { Behaviour } from './behaviour.js';
import type { Constraint } from './constraint.js';
import type { Tau2Instructions } from './tau2-task.js';

/** Task difficulty: the number of constraints (easy 1, medium 2–3, hard 4–6). */
export type Difficulty = 'easy' | 'medium' | 'hard';
export const DIFFICULTIES: readonly Difficulty[] = ['easy', 'medium', 'hard'];

/** Where a task's DB came from (docs/design.md §6). */
export type TaskDbSource =
  /** A db.json file; a relative `path` is relative to the folder of the tasks file. */
  | { readonly path: string; readonly canonical_sha256: string; readonly benchmark: boolean }
  /** A sandbox, regenerated from its seed and size when needed. */
  | {
      readonly sandbox: {
        readonly domain: string;
        readonly seed: number;
        /** The domain's declared size map, e.g. retail `{users, orders}`. */
        readonly size: Readonly<Record<string, number>>;
      };
      readonly canonical_sha256: string;
    };

/**
 * The fuzzy descriptions of a generated task (`cove.fuzz`): domain-specific fields read back by the domain's
 * scripted roles, plus the ids they replace, which must never appear in a user message (the leak scan).
 */
export interface CoveFuzz {
  readonly hidden_ids: readonly string[];
  readonly [field: string]: unknown;
}

/** The `cove` block of a generated task. */
export interface CoveBlock {
  readonly constraints: readonly Constraint[];
  readonly fuzz: CoveFuzz;
  readonly db: TaskDbSource;
  readonly semantics: 'parity' | 'fixed';
  readonly difficulty: Difficulty;
  /**
   * Goals of the session (`--goals`): the user brings up this many requests, one per constraint, in one
   * conversation on one DB copy. Absent in tasks made without `--goals`.
   */
  readonly goals?: number;
  readonly seed: number;
  readonly index: number;
  readonly domain: string;
  /** The user the task is about (grounding checks that the agent identified this user); absent in tasks made
   * before cove recorded it. */
  readonly user_id?: string;
  readonly cove_version: string;
  /** How each reference was described: the user's strategy and, per constraint, `<reference>:<strategy>`. */
  readonly references: { readonly user: string; readonly constraints: readonly (readonly string[])[] };
  /** How the user behaves: persona, knowledge profile and events (docs/conversations.md); absent in tasks made
   * before cove drew it. */
  readonly behaviour?: Behaviour;
  /** The conversation the task's episodes continue (`cove generate --from`): its id and position in the file; the
   * task was drawn from the state after that conversation's tool calls. Absent for tasks that start afresh. */
  readonly prefix?: { readonly id: string; readonly index: number };
}

/** A generated task: τ²'s task fields, loadable by τ², plus the `cove` block. */
export interface CoveTask {
  readonly id: string;
  readonly description: { purpose: string; relevant_policies: null; notes: string };
  readonly user_scenario: { persona: string | null; instructions: Tau2Instructions };
  readonly initial_state: null;
  readonly evaluation_criteria: {
    actions: {
      action_id: string;
      requestor: 'assistant';
      name: string;
      arguments: Record<string, unknown>;
      info: null;
      compare_args: null;
    }[];
    env_assertions: null;
    communicate_info: string[];
    nl_assertions: null;
    reward_basis: ['DB', 'COMMUNICATE'];
  };
  readonly cove: CoveBlock;
}

const coveBlockSchema = z.looseObject({
  constraints: z.array(
    z.looseObject({
      id: z.string(),
      kind: z.string(),
      args: z.record(z.string(), z.unknown()),
      footprint: z.array(z.object({ collection: z.string(), key: z.string() })),
    }),
  ),
  fuzz: z.looseObject({ hidden_ids: z.array(z.string()) }),
  db: z.unknown(),
  semantics: z.enum(['parity', 'fixed']),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  goals: z.number().int().min(1).optional(),
  seed: z.number(),
  index: z.number(),
  domain: z.string(),
  user_id: z.string().optional(),
  prefix: z.object({ id: z.string(), index: z.number().int().min(0) }).optional(),
});

/**
 * Reads the `cove` blocks of a tasks file's tasks (already validated as τ² tasks).
 * @throws {InputFileError} when a task has no `cove` block (a τ² benchmark task) or a malformed one.
 */
export function readCoveBlocks(raws: readonly PyValue[], ids: readonly string[], file: string): CoveBlock[] {
  return raws.map((raw, index) => {
    const plain = fromPyValue(raw) as Record<string, unknown>;
    if (plain.cove === undefined) {
      throw new InputFileError(
        file,
        `$[${index}]`,
        `task '${ids[index]}' has no "cove" block: this command needs tasks made by \`cove tasks\` (their constraints ` +
          'and fuzzy descriptions); τ² benchmark tasks carry neither (replay them with `cove replay`)',
      );
    }
    const result = coveBlockSchema.safeParse(plain.cove);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new InputFileError(
        file,
        formatIssuePath([index, 'cove', ...(issue?.path ?? [])]),
        issue === undefined ? 'invalid' : describeIssue(issue, plain.cove),
      );
    }
    return result.data as unknown as CoveBlock;
  });
}
