import type { Rng } from '../../../core/rng.js';
import { ScriptedUser } from '../../../sim/scripted/scripted-user.js';
import type { Behaviour } from '../../../tasks/behaviour.js';
import type { SqlFuzz } from '../sql-synthesis.js';
import { askOf, CONFIRM } from './asks.js';

/**
 * The scripted user of a SQL domain (issue 18 item 5, on the shared scripted-role machinery): reveals its goals
 * progressively — one per turn, sometimes two — in the persona's voice, confirms the changes the agent proposes,
 * and stops only once every goal has been brought up and the agent has nothing left to confirm.
 */
export class SqlScriptedUser extends ScriptedUser {
  readonly #fuzz: SqlFuzz;
  #next = 0;

  constructor(fuzz: SqlFuzz, rng: Rng, behaviour: Behaviour) {
    super(rng, behaviour);
    this.#fuzz = fuzz;
  }

  protected reply(agent: string): string {
    if (agent.includes(CONFIRM)) return this.styled('Yes, please go ahead.', true);
    const goals = this.#fuzz.goals;
    if (this.#next < goals.length) {
      const take = this.#next + 1 < goals.length && this.rng.chance(0.3) ? 2 : 1;
      const asks = goals.slice(this.#next, this.#next + take).map(askOf);
      this.request = this.#next;
      this.#next += take;
      return this.styled(asks.join(' Also, '));
    }
    return `${this.styled("That's all, thank you.", true)} ###STOP###`;
  }
}
