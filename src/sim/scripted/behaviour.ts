import type { Rng } from '../../core/rng.js';
import type { Persona } from '../../tasks/behaviour.js';
import { say, tidy } from './grammar.js';
import { CLOSERS, OPENERS, type Remarks, type Situation } from './persona-phrases.js';

export type { Situation } from './persona-phrases.js';

/**
 * The scripted user's persona style and its log of enacted events (docs/conversations.md); the behaviour itself
 * (persona, knowledge, events) is task data, in `tasks/behaviour.ts`.
 */

/**
 * A user message in the persona's style: sometimes an opener before and a remark after `core`, terse users drop
 * politeness and write lower case, and now and then a small slip (a missing final period, "pls"). Facts inside
 * `core` (names, options, emails, numbers) are never altered; `plain` turns the remarks off (answers that must
 * stay short, such as a yes). `closers`: the closing remarks to draw from (a domain may supply its own).
 */
export function styled(
  rng: Rng,
  persona: Persona,
  core: string,
  plain = false,
  situation: Situation = 'answer',
  closers: Remarks = CLOSERS,
): string {
  let text = core;
  if (!plain && rng.chance(0.4)) {
    const opener = say(rng, OPENERS[situation][persona]);
    // never the same opener twice in a row ("Thanks! Thanks!", "Hmm, okay. Hmm, okay.")
    if (opener !== '' && firstWord(opener) !== firstWord(core)) text = `${opener} ${text}`;
  }
  if (!plain && rng.chance(0.4)) {
    const closer = say(rng, closers[situation][persona]);
    // a remark after the core is its own sentence, and does not echo its start ("Thanks, … Thanks.")
    if (closer !== '' && firstWord(closer) !== firstWord(core))
      text = `${/[.!?]$/.test(text) ? text : `${text}.`} ${closer}`;
  }
  text = sentences(text);
  if (persona === 'terse' || persona === 'impatient') {
    text = text
      .replace(/\bplease\b/g, 'pls')
      .replace(/\bPlease\b/g, 'Pls')
      .replace(/\bThank you\b/g, 'Thx');
    if (persona === 'terse' && rng.chance(0.5)) text = `${text[0]?.toLowerCase()}${text.slice(1)}`;
  }
  if (rng.chance(0.12)) text = text.replace(/\.$/, '');
  return persona === 'terse' && /^[a-z]/.test(text) ? text.replace(/ {2,}/g, ' ').trim() : tidy(text);
}

/** The first word, lower-cased, cut to its stem ("Thanks" and "Thank" match). */
function firstWord(text: string): string {
  return (/^[A-Za-z]+/.exec(text)?.[0] ?? '').toLowerCase().slice(0, 5);
}

/** Capitalises the first letter after a sentence end ("Sure! let us do it" → "Sure! Let us do it"). */
export function sentences(text: string): string {
  return /[.!?] [a-z]/.test(text)
    ? text.replace(/([.!?]) ([a-z])/g, (_, p, c) => `${p} ${c.toUpperCase()}`)
    : text;
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
