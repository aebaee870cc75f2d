import type { Rng } from '../../../core/rng.js';
import { lastQuestion } from '../../../sim/scripted/grammar.js';
import { ScriptedUser } from '../../../sim/scripted/scripted-user.js';
import type { Behaviour } from '../../../tasks/behaviour.js';
import type { SqlFuzz } from '../sql-synthesis.js';
import { askOf, CONFIRM, proposalOf } from './asks.js';

/** A question that only asks whether there is more to do (answered with the next goal, or the end). */
const MORE = /(anything else|how can i help|what can i do for you|help you with)/;

/**
 * The scripted user of a SQL domain (issue 18 item 5, on the shared scripted-role machinery): reveals its goals
 * progressively — one per turn, sometimes two — in the persona's voice; confirms a change the agent proposes when
 * it is one of the goals it brought up and corrects it otherwise (restating what it asked for); answers any other
 * question of the agent from its descriptions (it knows nothing else, never an id); and stops only once every
 * goal has been brought up and the agent has nothing left to confirm or ask. Quoted values of its descriptions are
 * kept exactly as they are through the persona's styling.
 */
export class SqlScriptedUser extends ScriptedUser {
  readonly #fuzz: SqlFuzz;
  #next = 0;

  constructor(fuzz: SqlFuzz, rng: Rng, behaviour: Behaviour) {
    super(rng, behaviour);
    this.#fuzz = fuzz;
  }

  /** `core` in the persona's style, its quoted values untouched (styling may tidy punctuation or spell "pls"). */
  #styled(core: string, plain = false): string {
    const kept: string[] = [];
    const masked = core.replace(/"(?:[^"\\]|\\.)*"/g, (m) => `\u27e6${kept.push(m) - 1}\u27e7`);
    return this.styled(masked, plain).replace(/\u27e6(\d+)\u27e7/g, (_, i) => kept[Number(i)] as string);
  }

  protected reply(agent: string): string {
    const goals = this.#fuzz.goals;
    const brought = goals.slice(0, this.#next);
    const text = agent.toLowerCase();
    if (agent.includes(CONFIRM)) {
      const proposal = text.slice(text.indexOf(CONFIRM.toLowerCase()));
      if (brought.some((g) => proposal.includes(proposalOf(g).toLowerCase())))
        return this.#styled('Yes, please go ahead.', true);
      const last = brought[brought.length - 1];
      return this.#styled(
        last === undefined
          ? 'No, please do not change anything I have not asked for.'
          : `No, that is not what I asked for. ${askOf(last)}`,
        true,
      );
    }
    const question = lastQuestion(agent);
    if (question !== '' && !MORE.test(question) && brought.length > 0) {
      // a question about what the user means: answered from the descriptions of what it brought up
      const pending = brought.slice(Math.max(0, brought.length - 2)).map(askOf);
      return this.#styled(`I can only tell you what I said: ${pending.join(' Also, ')}`, true);
    }
    if (this.#next < goals.length) {
      const take = this.#next + 1 < goals.length && this.rng.chance(0.3) ? 2 : 1;
      const asks = goals.slice(this.#next, this.#next + take).map(askOf);
      this.request = this.#next;
      this.#next += take;
      return this.#styled(asks.join(' Also, '));
    }
    return `${this.#styled("That's all, thank you.", true)} ###STOP###`;
  }
}
