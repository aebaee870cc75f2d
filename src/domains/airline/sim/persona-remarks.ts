import { CLOSERS, type Remarks } from '../../../sim/scripted/persona-phrases.js';

/**
 * The airline customer's closing remarks (docs/airline.md, "Scripted roles"): the shared ones, with the chatty and
 * confused personas' shop-flavoured remarks ("I love your store", "online orders") replaced by travel ones. Same
 * shape, so a persona and situation draw the same way.
 */
const CHATTY = [
  '',
  '[It has been|What] a [long|busy|crazy] [week|day]!',
  'I [appreciate|really appreciate] it.',
  '[My|Our] [sister|partner|neighbor|friend|kid] [is travelling with me|told me to call you|says hi, ha].',
  'I [love|really like] [flying with you|your airline|the app][, by the way|, honestly|].',
  '[The weather|Traffic|Work] [has been|was] [crazy|awful|lovely] [today|this week], by the way.',
];

const CONFUSED = [
  '',
  'I hope that makes sense.',
  'If that helps.',
  "[Sorry|Apologies], I'm [hopeless|a bit lost|slow] with [these things|online bookings|this stuff].",
  'I [think|hope] that is [right|the one].',
];

function travel(remarks: Remarks[keyof Remarks]): Remarks[keyof Remarks] {
  // situations without remarks (a refusal) keep none
  if (remarks.chatty.length <= 1) return remarks;
  return { ...remarks, chatty: CHATTY, confused: CONFUSED };
}

export const AIRLINE_CLOSERS: Remarks = {
  open: travel(CLOSERS.open),
  answer: travel(CLOSERS.answer),
  refusal: travel(CLOSERS.refusal),
  confirm: travel(CLOSERS.confirm),
  done: travel(CLOSERS.done),
};
