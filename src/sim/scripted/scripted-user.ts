import type { Rng } from '../../core/rng.js';
import type { Behaviour, BehaviourEntry } from '../../tasks/behaviour.js';
import type { UserSimulator, UserTurn, VisibleMessage } from '../roles.js';
import { EventLog, type Situation, styled } from './behaviour.js';
import { CLOSERS, type Remarks } from './persona-phrases.js';

/**
 * The domain-neutral half of a scripted user (docs/conversations.md): counts turns, finds the behaviour entries
 * that concern the current request, styles every line in the persona's voice and logs the events it enacts (the
 * trajectory's `enacted_events`). A domain's user supplies `reply` (what to say to the agent's last text).
 */
export abstract class ScriptedUser implements UserSimulator {
  protected readonly rng: Rng;
  protected readonly behaviour: Behaviour;
  protected readonly log = new EventLog();
  /** Index of the request being dealt with. */
  protected request = 0;
  protected turns = 0;

  constructor(rng: Rng, behaviour: Behaviour) {
    this.rng = rng;
    this.behaviour = behaviour;
  }

  async respond(visible: readonly VisibleMessage[]): Promise<UserTurn> {
    this.turns++;
    return { content: this.reply(visible[visible.length - 1]?.content ?? '') };
  }

  enactedEvents(): readonly string[] {
    return this.log.list();
  }

  /** The reply to the agent's last text (the first call gets the agent's greeting). */
  protected abstract reply(agent: string): string;

  /** The knowledge entry or event of `kind` for request `request` (entries without a request match any), by field. */
  protected entry(kind: string, request = this.request, field?: string): BehaviourEntry | undefined {
    return [...this.behaviour.events, ...this.behaviour.knowledge].find(
      (e) =>
        e.kind === kind &&
        (e.request === undefined || e.request === request) &&
        (field === undefined || e.field === field),
    );
  }

  /** `core` in the persona's style for its `situation` (`plain`: no opener or closing remark). */
  protected styled(core: string, plain = false, situation: Situation = 'answer'): string {
    return styled(this.rng, this.behaviour.persona, core, plain, situation, this.closers());
  }

  /** The closing remarks this user draws from (the shared ones unless a domain supplies its own). */
  protected closers(): Remarks {
    return CLOSERS;
  }
}
