import type { Rng } from '../../../core/rng.js';
import type { AssistantMessage } from '../../../sim/messages.js';
import { isAffirmative } from '../../../sim/scripted/replies.js';
import { ScriptedAgent } from '../../../sim/scripted/scripted-agent.js';
import type { Constraint } from '../../../tasks/constraint.js';
import { words } from '../references.js';
import type { SqlFuzz, SqlGoal } from '../sql-synthesis.js';
import { askCore, askOf, CONFIRM } from './asks.js';

/** What the oracle needs of the domain: the lookup tool of each refusal kind and the refusal text of each rule. */
export interface SqlOracleContext {
  readonly refusalLookup: ReadonlyMap<string, { readonly tool: string; readonly argument: string }>;
  readonly refusalText: ReadonlyMap<string, string>;
}

interface GoalState {
  readonly goal: SqlGoal;
  readonly constraint: Constraint;
  asked: boolean;
  called: boolean;
  done: boolean;
}

/**
 * The oracle agent of a SQL domain: it acts only on the goals the user has brought up (spotted in the user's
 * texts), in the order they came: an information goal by its lookup tool, then the value told; a refusal by
 * looking the entity up, then saying no with the rule's words; a write by proposing it, and on a yes making the
 * gold call. It reports once every goal brought up so far is handled. It reads the task's exact keys (it is the
 * oracle), never guesses, and makes no write the user did not confirm.
 */
export class SqlOracleAgent extends ScriptedAgent<GoalState> {
  readonly #states: GoalState[];
  readonly #context: SqlOracleContext;
  #report: string[] = [];

  constructor(fuzz: SqlFuzz, constraints: readonly Constraint[], _rng: Rng, context: SqlOracleContext) {
    super();
    this.#context = context;
    this.#states = fuzz.goals.map((goal) => ({
      goal,
      constraint: constraints.find((c) => c.id === goal.constraint) as Constraint,
      asked: false,
      called: false,
      done: false,
    }));
  }

  protected ingest(state: GoalState, content: string): void {
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

  protected decide(): AssistantMessage {
    const said = this.said();
    for (const s of this.#states) {
      if (s.done || !said.includes(askCore(s.goal))) continue;
      const c = s.constraint;
      if (c.kind.startsWith('info_')) {
        s.called = true;
        return this.call(s, c.kind.slice('info_'.length), c.args.call as Record<string, unknown>);
      }
      if (c.kind.startsWith('refuse_')) {
        const lookup = this.#context.refusalLookup.get(c.kind);
        if (lookup === undefined) {
          s.done = true;
          this.#report.push(`I'm sorry, I cannot do that: ${this.#context.refusalText.get(c.kind) ?? ''}`);
          continue;
        }
        s.called = true;
        return this.call(s, lookup.tool, { [lookup.argument]: c.args.entity_key });
      }
      if (!s.asked) {
        s.asked = true;
        return this.say(
          this.#flush(
            `${CONFIRM}: ${askOf(s.goal)
              .replace(/^I would like /, '')
              .replace(/\.$/, '')}?`,
          ),
        );
      }
      if (isAffirmative(this.lastSaid())) {
        s.called = true;
        return this.call(s, c.kind, c.args.call as Record<string, unknown>);
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
