import type { Rng } from '../../core/rng.js';
import type { Persona } from '../../tasks/behaviour.js';
import { say, tidy } from './grammar.js';

/**
 * The scripted user's persona style and its log of enacted events (docs/conversations.md); the behaviour itself
 * (persona, knowledge, events) is task data, in `tasks/behaviour.ts`.
 */

// persona remarks: combinatorial, and free of words that read as a refusal (no, not, don't, stop, wrong, actually,
// instead, rather), since they may frame a yes
const OPENERS: Record<Persona, readonly string[]> = {
  terse: ['', '', 'ok.', 'right.', 'k.'],
  chatty: [
    '[Oh, |Ah, |]great[, thanks| news|].',
    '[Sorry, |]I was just [making coffee|making tea|feeding the cat|on the other line][, ha|].',
    'Thanks for [bearing with me|your patience|being so quick].',
    '[Oh wonderful|Lovely|How nice].',
    '[So|Well], [here is the thing|let me explain|where was I].',
  ],
  anxious: [
    'Okay[, thank you|].',
    'Oh good.',
    'Okay, I hope this works.',
    '[Phew|Oh dear], okay.',
    'Alright, [fingers crossed|here goes].',
  ],
  confused: [
    'Hmm, okay.',
    'Oh, right.',
    'Um, let me think.',
    'Okay, I think so.',
    'Hang on, let me [check|see].',
  ],
  formal: [
    'Thank you.',
    'Certainly.',
    'Very well.',
    'Thank you for your [help|assistance|prompt reply].',
    'Good[, thank you|].',
  ],
  friendly: [
    'Thanks!',
    'Great, thanks!',
    'Awesome.',
    'Thank you so much!',
    '[Oh, |]perfect!',
    'You are [a star|the best]!',
  ],
  impatient: ['Fine.', 'Okay, quickly [please|now].', 'Alright.', '', '[Good|Right], [moving on|next].'],
};

const CLOSERS: Record<Persona, readonly string[]> = {
  terse: ['', ''],
  chatty: [
    '',
    '[It has been|What] a [long|busy|crazy] [week|day]!',
    'I [appreciate|really appreciate] it.',
    '[My|Our] [sister|partner|neighbor|friend|kid] [was asking about it|told me to call you|says hi, ha].',
    'I [love|really like] [your store|shopping with you|the app][, by the way|, honestly|].',
    '[The weather|Traffic|Work] [has been|was] [crazy|awful|lovely] [today|this week], by the way.',
  ],
  anxious: [
    '',
    'I just want to make sure it is right.',
    'Is that okay?',
    'I [hope|really hope] this is [okay|fine|manageable].',
    'I [always|sometimes] worry about [mixing things up|getting these things mixed up].',
    '[Will|Would] that [be okay|work]?',
  ],
  confused: [
    '',
    'I hope that makes sense.',
    'If that helps.',
    "[Sorry|Apologies], I'm [hopeless|a bit lost|slow] with [these things|online orders|this stuff].",
    'I [think|hope] that is [right|the one].',
  ],
  formal: [
    '',
    'Thank you in advance.',
    'I appreciate your assistance.',
    '[Kind|Best] regards.',
    'I would be [grateful|obliged] for your [assistance|help][ in this matter| with this|].',
  ],
  friendly: [
    '',
    'Thanks a lot!',
    'Much appreciated.',
    '[Hope|I hope] your day is going [well|great]!',
    '[Have a|Wishing you a] [great|lovely] day!',
  ],
  impatient: [
    '',
    'Thanks.',
    "Let's get this done.",
    "I haven't got [much|a lot of] time.",
    "[I'm|I am] [in a rush|between meetings|on my lunch break].",
  ],
};

/**
 * A user message in the persona's style: sometimes an opener before and a remark after `core`, terse users drop
 * politeness and write lower case, and now and then a small slip (a missing final period, "pls"). Facts inside
 * `core` (names, options, emails, numbers) are never altered; `plain` turns the remarks off (answers that must
 * stay short, such as a yes).
 */
export function styled(rng: Rng, persona: Persona, core: string, plain = false): string {
  let text = core;
  if (!plain && rng.chance(0.4)) {
    const opener = say(rng, OPENERS[persona]);
    if (opener !== '') text = `${opener} ${text}`;
  }
  if (!plain && rng.chance(0.4)) {
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
