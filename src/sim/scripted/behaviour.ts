import type { Rng } from '../../core/rng.js';
import type { Persona } from '../../tasks/behaviour.js';
import { say, tidy } from './grammar.js';

/**
 * The scripted user's persona style and its log of enacted events (docs/conversations.md); the behaviour itself
 * (persona, knowledge, events) is task data, in `tasks/behaviour.ts`.
 */

const OPENERS: Record<Persona, readonly string[]> = {
  terse: ['', '', 'ok.', 'right.'],
  chatty: [
    '[Oh, |]great[, thanks|].',
    'Ah, perfect.',
    '[Sorry, |]I was just making [coffee|tea], ha.',
    'Thanks for bearing with me.',
    'Oh wonderful.',
  ],
  anxious: ['Okay[, thank you|].', 'Oh good.', 'Okay, I hope this works.', 'Phew, okay.'],
  confused: ['Hmm, okay.', 'Oh, right.', 'Um, let me think.', 'Okay, I think so.'],
  formal: ['Thank you.', 'Certainly.', 'Very well.', 'Thank you for your help.'],
  friendly: ['Thanks!', 'Great, thanks!', 'Awesome.', 'Thank you so much!'],
  impatient: ['Fine.', 'Okay, quickly please.', 'Alright.', ''],
};

const CLOSERS: Record<Persona, readonly string[]> = {
  terse: ['', ''],
  chatty: ['', 'It has been quite a week!', 'I appreciate it.'],
  anxious: ['', 'I just want to make sure it is right.', 'Is that okay?'],
  confused: ['', 'I hope that makes sense.', 'If that helps.'],
  formal: ['', 'Thank you in advance.', 'I appreciate your assistance.'],
  friendly: ['', 'Thanks a lot!', 'Much appreciated.'],
  impatient: ['', 'Thanks.', "Let's get this done."],
};

/**
 * A user message in the persona's style: sometimes an opener before and a remark after `core`, terse users drop
 * politeness and write lower case, and now and then a small slip (a missing final period, "pls"). Facts inside
 * `core` (names, options, emails, numbers) are never altered; `plain` turns the remarks off (answers that must
 * stay short, such as a yes).
 */
export function styled(rng: Rng, persona: Persona, core: string, plain = false): string {
  let text = core;
  if (!plain && rng.chance(0.35)) {
    const opener = say(rng, OPENERS[persona]);
    if (opener !== '') text = `${opener} ${text}`;
  }
  if (!plain && rng.chance(0.25)) {
    const closer = say(rng, CLOSERS[persona]);
    if (closer !== '') text = `${text} ${closer}`;
  }
  if (persona === 'terse' || persona === 'impatient') {
    text = text.replace(/\b[Pp]lease\b/g, 'pls').replace(/\bThank you\b/g, 'thx');
    if (persona === 'terse' && rng.chance(0.5)) text = `${text[0]?.toLowerCase()}${text.slice(1)}`;
  }
  if (rng.chance(0.12)) text = text.replace(/\.$/, '');
  return persona === 'terse' && /^[a-z]/.test(text) ? text.replace(/ {2,}/g, ' ').trim() : tidy(text);
}

/** The kinds of events an episode enacted, in order, without duplicates (the trajectory's `enacted_events`). */
export class EventLog {
  readonly #kinds: string[] = [];

  note(kind: string): void {
    if (!this.#kinds.includes(kind)) this.#kinds.push(kind);
  }

  list(): readonly string[] {
    return [...this.#kinds];
  }
}
