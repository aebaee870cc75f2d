import type { Persona } from '../../tasks/behaviour.js';

/**
 * The persona remarks of a scripted user (docs/conversations.md), by the situation of the message they frame:
 * remarks must fit what the user is doing, since this is training text. Praise only after a done action; no
 * opener at all in an opening message (its greeting is part of the message) or in a reaction to a refusal (the
 * reaction is the message); a neutral opener when answering a question or confirming a proposal. All free of
 * words that read as a refusal (no, not, don't, stop, wrong, actually, instead, rather), since they may frame a yes.
 */
export type Situation = 'open' | 'answer' | 'refusal' | 'confirm' | 'done';

/** Remarks by situation and persona (templates of the paraphrase grammar). */
export type Remarks = Readonly<Record<Situation, Readonly<Record<Persona, readonly string[]>>>>;

const NONE: Record<Persona, readonly string[]> = {
  terse: [''],
  chatty: [''],
  anxious: [''],
  confused: [''],
  formal: [''],
  friendly: [''],
  impatient: [''],
};

/** Openers of an answer to the agent's question (no praise, no yes/no filler). */
const ANSWER: Record<Persona, readonly string[]> = {
  terse: ['', '', 'ok.', 'k.'],
  chatty: [
    '[Sorry, |]I was just [making coffee|making tea|feeding the cat|on the other line][, ha|].',
    '[So|Well], [let me see|where was I].',
    'Sure thing.',
  ],
  anxious: ['Okay.', 'Um, okay.', 'Alright, [let me see|here goes].'],
  confused: ['Hmm, let me think.', 'Um, let me see.', 'Hang on, let me [check|see].', 'Oh, right.'],
  formal: ['Certainly.', 'Of course.', 'Very well.'],
  friendly: ['Sure!', 'Of course!', 'Sure thing!'],
  impatient: ['Fine.', 'Alright.', '', 'Okay, quickly [please|now].'],
};

/** Openers of a reply to a proposal (a yes or a change): acknowledgement, no praise. */
const CONFIRM: Record<Persona, readonly string[]> = {
  terse: ['', '', 'ok.', 'right.'],
  chatty: ['[Oh, |Ah, |]lovely.', '[So|Well], let me see.'],
  anxious: ['Okay, I hope this works.', 'Alright, [fingers crossed|here goes].', 'Okay.'],
  confused: ['Hmm, okay.', 'Okay, I think so.', 'Um, let me think.'],
  formal: ['Very well.', 'Good.', 'Certainly.'],
  friendly: ['Sounds good!', 'Alright!', 'Okay!'],
  impatient: ['Fine.', 'Alright.', ''],
};

/** Openers after a done action: the only place for praise. No thanks — the message itself already thanks. */
const DONE: Record<Persona, readonly string[]> = {
  terse: ['', '', 'ok.', 'k.'],
  chatty: ['[Oh, |Ah, |]great news.', '[Oh wonderful|Lovely|How nice].', 'That was [quick|fast]!'],
  anxious: ['Oh good.', 'Phew, okay.', 'Oh, what a relief.'],
  confused: ['Oh, right.', 'Oh, okay.'],
  formal: ['Excellent.', 'Very good.', 'Splendid.'],
  friendly: ['Awesome.', '[Oh, |]perfect!', 'You are [a star|the best]!'],
  impatient: ['Fine.', 'Alright.', '', '[Good|Right], [moving on|next].'],
};

export const OPENERS: Record<Situation, Record<Persona, readonly string[]>> = {
  open: NONE,
  answer: ANSWER,
  refusal: NONE,
  confirm: CONFIRM,
  done: DONE,
};

/** Closing remarks; none after a refusal (a cheerful aside reads as ignoring it). */
const CLOSERS_ANY: Record<Persona, readonly string[]> = {
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

export const CLOSERS: Remarks = {
  open: CLOSERS_ANY,
  answer: CLOSERS_ANY,
  refusal: NONE,
  confirm: CLOSERS_ANY,
  done: CLOSERS_ANY,
};
