import type { Rng } from '../../../core/rng.js';
import type { AssistantMessage } from '../../../sim/messages.js';
import { isAffirmative } from '../../../sim/scripted/replies.js';
import { ScriptedAgent } from '../../../sim/scripted/scripted-agent.js';
import type { Constraint } from '../../../tasks/constraint.js';
import { type Plain, renderReference, words } from '../references.js';
import type { TableInfo } from '../schema-info.js';
import type { SqlFuzz, SqlGoal } from '../sql-synthesis.js';
import type { WritePlan } from '../tool-plans.js';
import type { Resolution, ResolveCall, ResolveSteps, ToolReach, ToolRow } from '../tool-resolver.js';
import { askCore, CONFIRM, proposalOf } from './asks.js';

/** What the oracle needs of the domain: how descriptions are resolved, how write kinds are called, refusals. */
export interface SqlOracleContext {
  readonly reach: ToolReach;
  readonly tables: readonly TableInfo[];
  /** The plan of each write kind (by tool name): which parameter is a key, a parent or a stated value. */
  readonly plans: ReadonlyMap<string, WritePlan>;
  readonly refusalLookup: ReadonlyMap<string, { readonly tool: string; readonly argument: string }>;
  readonly refusalText: ReadonlyMap<string, string>;
}

interface GoalState {
  readonly goal: SqlGoal;
  readonly constraint: Constraint;
  /** The row each reference was resolved to, by the parameter it fills. */
  readonly found: Map<string, Readonly<Record<string, unknown>>>;
  /** The reference being resolved and its steps. */
  ref: number;
  steps: ResolveSteps | undefined;
  next: IteratorResult<ResolveCall, Resolution> | undefined;
  asked: boolean;
  done: boolean;
}

type Lookup = { readonly state: GoalState; readonly purpose: 'resolve' | 'act' };

/**
 * The oracle agent of a SQL domain: it acts only on the goals the user has brought up (spotted in the user's
 * texts), in the order they came. It first resolves every description of the goal through the domain's read
 * tools (a search or list whose parameter matches one of the description's columns, then the rows filtered by
 * its other conditions, parents looked up where a condition is about one — {@link ToolReach}), and uses the rows
 * it found; a reference by key (fuzz level 0) is used as given. A description the tools cannot resolve to one row
 * is reported to the user and the goal left undone. Then: an information goal by its lookup tool and the value
 * told; a refusal by looking the entity up and saying no with the rule's words; a write by proposing it and, on a
 * yes, making the call. Values the user states (a new name, a quantity) are taken from the request as said. It
 * reports once every goal brought up so far is handled and makes no write the user did not confirm.
 */
export class SqlOracleAgent extends ScriptedAgent<Lookup> {
  readonly #states: GoalState[];
  readonly #context: SqlOracleContext;
  #report: string[] = [];

  constructor(fuzz: SqlFuzz, constraints: readonly Constraint[], _rng: Rng, context: SqlOracleContext) {
    super();
    this.#context = context;
    this.#states = fuzz.goals.map((goal) => ({
      goal,
      constraint: constraints.find((c) => c.id === goal.constraint) as Constraint,
      found: new Map(),
      ref: 0,
      steps: undefined,
      next: undefined,
      asked: false,
      done: false,
    }));
  }

  protected ingest({ state, purpose }: Lookup, content: string): void {
    if (purpose === 'resolve') {
      state.next = state.steps?.next(content);
      return;
    }
    const c = state.constraint;
    state.done = true;
    if (content.startsWith('Error')) {
      this.#report.push(`That did not work (${content}).`);
      return;
    }
    if (c.kind.startsWith('info_')) {
      const column = String(c.args.column);
      const row = JSON.parse(content) as Record<string, unknown>;
      this.#report.push(`The ${words(column)} is ${String(row[column])}.`);
    } else if (c.kind.startsWith('refuse_')) {
      this.#report.push(
        `I'm sorry, I cannot do that: ${this.#context.refusalText.get(c.kind) ?? 'our policy forbids it.'}`,
      );
    } else {
      this.#report.push('Done, the change is made.');
    }
  }

  /** The next read call of the goal's resolution, `true` once every reference is resolved, or why one is not. */
  #resolve(s: GoalState): AssistantMessage | true | string {
    const refs = s.goal.references;
    while (s.ref < refs.length) {
      const ref = refs[s.ref] as (typeof refs)[number];
      if (ref.clauses.length === 0) {
        // a reference by key (fuzz level 0): the user gave the key itself
        s.found.set(ref.param, ref.key);
        s.ref++;
        continue;
      }
      if (s.steps === undefined) {
        s.steps = this.#context.reach.resolve(ref.table, ref.clauses);
        s.next = s.steps.next();
      }
      const next = s.next as IteratorResult<ResolveCall, Resolution>;
      if (!next.done) return this.call({ state: s, purpose: 'resolve' }, next.value.name, next.value.args);
      s.steps = undefined;
      const said = renderReference(this.#context.tables, ref);
      if ('unresolved' in next.value)
        return `I could not look up ${said} with the tools I have (${next.value.unresolved})`;
      if (next.value.rows.length !== 1)
        return `I found ${next.value.rows.length === 0 ? 'no' : next.value.rows.length} records matching ${said}`;
      s.found.set(ref.param, next.value.rows[0] as ToolRow);
      s.ref++;
    }
    return true;
  }

  /** The arguments of a write goal's call: keys and parents from the rows found, stated values as said. */
  #writeArgs(s: GoalState): Record<string, unknown> | string {
    const c = s.constraint;
    const plan = this.#context.plans.get(c.kind);
    if (plan === undefined) return `I have no way to make that change (${c.kind})`;
    const said = c.args.call as Record<string, unknown>;
    const target = s.goal.references.find(
      (r) => r.table === plan.table.name && plan.roles[r.param]?.role === 'key',
    );
    const args: Record<string, unknown> = {};
    for (const [p, role] of Object.entries(plan.roles)) {
      if (role.role === 'value') args[p] = said[p];
      else {
        const row = role.role === 'key' ? s.found.get(target?.param ?? '') : s.found.get(p);
        const column = role.role === 'key' ? role.column : role.parentColumn;
        const value = row?.[column];
        if (value === undefined) return `I could not tell which ${words(role.column)} you mean`;
        args[p] = value as Plain;
      }
    }
    return args;
  }

  protected decide(): AssistantMessage {
    const said = this.said();
    for (const s of this.#states) {
      if (s.done || !said.includes(askCore(s.goal))) continue;
      const resolved = this.#resolve(s);
      if (typeof resolved === 'string') {
        s.done = true;
        this.#report.push(`${resolved}, so I cannot do this one.`);
        continue;
      }
      if (resolved !== true) return resolved;
      const c = s.constraint;
      const first = s.goal.references[0];
      const firstRow = first === undefined ? undefined : s.found.get(first.param);
      const table = this.#context.tables.find((t) => t.name === first?.table);
      const keyValue = table === undefined ? undefined : firstRow?.[table.primaryKey[0] as string];
      if (c.kind.startsWith('info_')) {
        if (first === undefined || keyValue === undefined) {
          s.done = true;
          this.#report.push('I could not tell which record you mean.');
          continue;
        }
        return this.call({ state: s, purpose: 'act' }, c.kind.slice('info_'.length), {
          [first.param]: keyValue,
        });
      }
      if (c.kind.startsWith('refuse_')) {
        const lookup = this.#context.refusalLookup.get(c.kind);
        if (lookup === undefined || keyValue === undefined) {
          s.done = true;
          this.#report.push(`I'm sorry, I cannot do that: ${this.#context.refusalText.get(c.kind) ?? ''}`);
          continue;
        }
        return this.call({ state: s, purpose: 'act' }, lookup.tool, { [lookup.argument]: keyValue });
      }
      if (!s.asked) {
        s.asked = true;
        return this.say(this.#flush(`${CONFIRM}: ${proposalOf(s.goal)}?`));
      }
      if (isAffirmative(this.lastSaid())) {
        const args = this.#writeArgs(s);
        if (typeof args === 'string') {
          s.done = true;
          this.#report.push(`${args}, so I cannot do this one.`);
          continue;
        }
        return this.call({ state: s, purpose: 'act' }, c.kind, args);
      }
      s.done = true;
      this.#report.push('Understood, I will leave it as it is.');
    }
    return this.say(
      this.#flush(
        this.#report.length === 0 ? 'How can I help you today?' : 'Is there anything else I can help with?',
      ),
    );
  }

  #flush(tail: string): string {
    const text = [...this.#report, tail].join(' ');
    this.#report = [];
    return text;
  }
}
