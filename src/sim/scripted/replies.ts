/**
 * How scripted roles read the other side's free text (docs/conversations.md), domain-neutral: a yes to a
 * proposal, a push-back on a refusal, a request for a human, and identity details (an email address, a zip code
 * introduced as one). A handful of regular expressions, compiled once.
 */

const NO =
  /\b(no|nope|not|don't|do not|wrong|stop|actually|instead|rather|wait|second thought|changed my mind|should be)\b/i;
const YES =
  /\b(yes|yeah|yep|sure|correct|right|exactly|go ahead|please do|do it|confirm(ed)?|ok|okay|proceed|sounds good|good|fine|works)\b/i;
const EMAIL = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]+/g;
const ZIP = /zip(?: code)?(?: is)?:?\s*(\d{5})/g;

/** Whether a reply accepts a proposal: a yes word and no word of refusal or amendment. */
export function isAffirmative(text: string): boolean {
  return !NO.test(text) && YES.test(text);
}

/** Whether a reply pushes back on a refusal (asks for an exception). */
export function isPushBack(text: string): boolean {
  return /(exception|nothing you can do|are you sure|really\?)/.test(text);
}

/** Whether a reply asks to speak to a human agent. */
export function asksForHuman(text: string): boolean {
  return /(human|real person|transfer me)/.test(text);
}

/** The last email address in `text` (lower-cased input), if any. */
export function lastEmail(text: string): string | undefined {
  let out: string | undefined;
  for (const m of text.matchAll(EMAIL)) out = m[0];
  return out;
}

/** The last five-digit zip code introduced by "zip" / "zip code" in `text`, if any. */
export function lastZip(text: string): string | undefined {
  let out: string | undefined;
  for (const m of text.matchAll(ZIP)) out = m[1];
  return out;
}
