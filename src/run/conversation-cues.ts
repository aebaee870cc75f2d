/**
 * The text-level pieces of the conversation measures (docs/conversations.md, "Measures"): the tokenizer, the
 * classifiers of agent questions and user cues (small regex sets, English), and the user sentence template.
 * Everything here is a pure function of one text; the aggregation over a run is `conversation-metrics.ts`.
 */

/** The user's stop marker, removed from user text before it is measured (τ²'s `###STOP###`). */
export const USER_STOP_MARKER = '###STOP###';

/** A user message's text as measured: the stop marker removed, surrounding white space trimmed. */
export function measuredUserText(content: string): string {
  return content.split(USER_STOP_MARKER).join(' ').trim();
}

const TOKEN = /[a-z0-9']+|[^\sa-z0-9']/g;

/**
 * Tokens of a text: the text lower-cased, then every maximal run of `[a-z0-9']` is one token and every other
 * non-space character (punctuation, symbols, letters outside a–z such as `é` or the typographic apostrophe `’`)
 * is a token of its own. White space separates tokens and is never one.
 */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

/** Sentences of a text: split at line breaks and after `.`, `!`, `?` or `…` followed by white space. */
export function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?…])\s+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The question sentences of an agent text: each maximal stretch ending in `?` within a line or sentence. */
export function questions(text: string): string[] {
  return (text.match(/[^.!?\n]*\?/g) ?? []).map((q) => q.trim()).filter((q) => q.length > 1);
}

// An apostrophe as models write it: straight or typographic.
const AP = "['’]";

/** Asks for what identifies the user (τ²'s retail and airline policies authenticate by these). */
const AUTH_QUESTION =
  /\b(e-?mail|zip( ?code)?|postal code|first name|last name|full name|user ?id|date of birth)\b/i;

/** Refers back to what the previous sentence listed ("Could you please provide those details?"). */
const BACK_REFERENCE = /\b(those|these|the above|that|this) (details|information|pieces of information)\b/i;

/** Write actions a confirmation question is about. */
const WRITE_VERB =
  '(proceed|continue|go ahead|update|change|modify|cancel|return|exchange|replace|remove|switch|swap|place|process|submit|apply|refund|book|upgrade)';

/**
 * A request to confirm a write: "confirm" (not "confirm which/what/the order number", which asks for a detail),
 * "proceed" (not the purpose clause "to proceed, …"), "is this correct", "yes/no", "would you like (me) to
 * exchange …", "have you included all the items …" — a yes/no question about one action. A question offering
 * alternatives with " or " is a choice, which asks the user to decide, and so is not counted as a confirmation.
 */
const CONFIRM_WRITE = new RegExp(
  [
    '\\bconfirm\\b(?! (which|what|whether|if|the (order )?(number|id)))',
    '(?<!\\bto )\\bproceed\\b',
    '\\bgo ahead\\b',
    '\\b(is|are) (this|that|these|those|everything|all( of)? (this|that|these)|the (above )?(details|information|changes?)) (\\w+ )?correct\\b',
    '\\byes ?/ ?no\\b',
    `\\b(would|do) you (like|want|wish) (me )?to ${WRITE_VERB}\\b`,
    `\\b(shall|should) i ${WRITE_VERB}\\b`,
    '\\b(have|did) you (provided|included|listed|mentioned|given) all\\b',
    `\\bok(ay)? to ${WRITE_VERB}\\b`,
  ].join('|'),
  'i',
);
const CHOICE = /\bor\b/i;

/** "Anything else?", "How can I help you today?" and other open offers of help. */
const OFFER_OF_HELP =
  /\b(anything else|something else|any other (questions?|requests?|help|concerns?|issues?)|how (can|may) i (help|assist)|what can i (do|help))\b/i;

/** How an agent question is classified. */
export type QuestionKind = 'authentication' | 'confirmation' | 'offer' | 'clarifying';

/**
 * Classifies one agent question sentence, given the sentence before it in the same turn (for "those details").
 * Order: an offer of help, then authentication, then a request to confirm a write (unless it offers a choice),
 * else a clarifying question.
 */
export function classifyQuestion(question: string, previous = ''): QuestionKind {
  if (OFFER_OF_HELP.test(question)) return 'offer';
  if (AUTH_QUESTION.test(question)) return 'authentication';
  if (BACK_REFERENCE.test(question) && AUTH_QUESTION.test(previous)) return 'authentication';
  if (CONFIRM_WRITE.test(question) && !CHOICE.test(question)) return 'confirmation';
  return 'clarifying';
}

/** True when an agent text holds a clarifying question (at least one question that is none of the others). */
export function hasClarifyingQuestion(text: string): boolean {
  if (!text.includes('?')) return false;
  const parts = sentences(text);
  return parts.some(
    (sentence, i) =>
      sentence.includes('?') &&
      questions(sentence).some((q) => classifyQuestion(q, parts[i - 1] ?? '') === 'clarifying'),
  );
}

/**
 * The user gives partial or uncertain information: does not remember or have a detail, is not sure, thinks,
 * remembers it only roughly.
 */
const PARTIAL_INFORMATION = new RegExp(
  [
    `\\b(don${AP}?t|do not|can${AP}?t|cannot|couldn${AP}?t) (quite )?(remember|recall|find)\\b`,
    '\\bforg(o|e)t(ten)?\\b',
    '\\bnot (completely |entirely |totally |quite |exactly |100% )?(sure|certain)\\b',
    '\\bunsure\\b',
    '\\bno idea\\b',
    `\\b(don${AP}?t|do not) have (the|my|an?|any) ([\\w-]+ ){0,3}?(number|id|e-?mail|address|details?)\\b`,
    `\\bi think (my|the|it|it${AP}s|it was|that)\\b`,
    '\\b(about|around|roughly|like|maybe) (a|an|one|two|three|four|few|couple of|\\d+) (days?|weeks?|months?)( or so)? ago\\b',
    '\\bif i remember (correctly|right)\\b',
    '\\bor something( like that)?\\b',
  ].join('|'),
  'i',
);

/** The user changes their mind or corrects what they said. */
const CHANGE_OF_MIND = new RegExp(
  [
    '\\bchanged? my mind\\b',
    '\\bon second thought\\b',
    '\\bscratch that\\b',
    '\\bnever ?mind\\b',
    `\\bi${AP}?(ve| have) decided\\b`,
    `\\bactually,? (i|i${AP}d|i${AP}ll|i${AP}ve|let${AP}s|let me|can we|could we|please|make it|no)\\b`,
    `\\b(sorry|oops|wait),? (i meant|that${AP}s wrong|that was wrong|i made a mistake|wrong)\\b`,
    '\\bi meant\\b',
    `\\b(no|not),? that${AP}?s not (the one|it|right|what i)\\b`,
    `\\b(let${AP}s|i${AP}d rather) (just )?(keep|leave|not|skip)\\b`,
  ].join('|'),
  'i',
);

/** The user pushes back on a refusal or asks for an exception. */
const PUSH_BACK = new RegExp(
  [
    '\\bexception\\b',
    '\\bare you sure\\b',
    `\\bcan${AP}?t you (just )?`,
    `\\bisn${AP}?t there (any|some)\\b`,
    '\\bis there (really )?no (other )?way\\b',
    `\\b(that${AP}?s|that is|this is) (not fair|unfair|ridiculous|unacceptable)\\b`,
    '\\bunfair\\b',
    '\\bi (really )?insist\\b',
    '\\bbut i was told\\b',
    '\\b(please )?reconsider\\b',
    '\\b(supervisor|manager)\\b',
  ].join('|'),
  'i',
);

/** User cues read from the text (documented in docs/conversations.md). */
export const USER_TEXT_CUES = {
  partial_information: PARTIAL_INFORMATION,
  change_of_mind: CHANGE_OF_MIND,
  push_back: PUSH_BACK,
} as const;

// Placeholders that survive lower-casing and tokenization as one token each.
const QUOTED = 'zzquotedzz';
const ID = 'zzidzz';
const SLOT_OF: Record<string, string> = { [QUOTED]: '<quoted>', [ID]: '<id>' };

/** Words that are never slots even when a tool value holds them (answers and function words). */
const NOT_VALUE_WORDS = new Set([
  ...['yes', 'no', 'none', 'true', 'false', 'null', 'a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'to'],
  ...['for', 'with', 'by', 'at', 'from', 'i', 'it', 'is', 'my', 'me', 'you', 'your'],
]);

/**
 * Words of the string values (not keys) of a tool call's arguments or a tool result: the entities a conversation
 * is about (product names and options, person and place names, statuses). A text that is not JSON counts as one
 * string value. Only words of letters and `'` are kept. `cache` memoizes the words of each string across calls.
 */
export function valueWords(text: string, into: Set<string>, cache = new Map<string, string[]>()): void {
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      let words = cache.get(v);
      if (words === undefined) {
        words = tokenize(v).filter((t) => /^[a-z']+$/.test(t) && !NOT_VALUE_WORDS.has(t));
        cache.set(v, words);
      }
      for (const w of words) into.add(w);
    } else if (Array.isArray(v)) for (const x of v) visit(x);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) visit(x);
  };
  const head = text.trimStart()[0];
  if (head !== '{' && head !== '[' && head !== '"') {
    visit(text);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = text;
  }
  visit(value);
}

/**
 * The template of one user sentence: its tokens with slots for what varies between users of the same script —
 * a quoted span (`"…"` or `“…”`) is `<quoted>`; a white-space-delimited chunk holding a digit, `@`, `#` or `_`
 * (order and item ids, e-mails, amounts, zip codes) is `<id>`; a capitalised word that is not the sentence's
 * first word nor `I`, `I'm`, … is `<name>`; a word found in the conversation's tool values ({@link valueWords})
 * is `<value>`. Runs of the same slot collapse to one. Tokens as {@link tokenize}.
 */
export function sentenceTemplate(sentence: string, values: ReadonlySet<string>): string {
  const marked = sentence
    .replace(/"[^"\n]{1,80}"|“[^”\n]{1,80}”/g, ` ${QUOTED} `)
    .replace(/\S+/g, (chunk) => {
      if (!/[0-9@#_]/.test(chunk)) return chunk;
      const trailing = /[.,!?;:)]*$/.exec(chunk)?.[0] ?? '';
      return trailing.length === chunk.length ? chunk : ` ${ID} ${trailing}`;
    });
  const raw = marked.match(/[A-Za-z0-9']+|[^\sA-Za-z0-9']/g) ?? [];
  const out: string[] = [];
  let firstWord = true;
  for (const token of raw) {
    const lower = token.toLowerCase();
    const isWord = /^[a-z0-9']+$/.test(lower);
    let slot = SLOT_OF[lower] ?? lower;
    if (slot === lower && isWord) {
      const capitalised = /^[A-Z]/.test(token) && !/^i($|')/.test(lower);
      if (capitalised && !firstWord) slot = '<name>';
      else if (values.has(lower)) slot = '<value>';
    }
    if (isWord) firstWord = false;
    if (slot.startsWith('<') && out[out.length - 1] === slot) continue;
    out.push(slot);
  }
  return out.join(' ');
}
