import type { Rng } from '../../core/rng.js';

/**
 * The paraphrase grammar of the scripted roles (docs/conversations.md): a situation is a list of templates; a
 * template holds slots `{name}` and choice groups `[a|b|c]` (nested groups allowed, an empty branch `[|x]`
 * makes a part optional). {@link say} picks a template and expands it with the seeded Rng, so every situation
 * has many surface forms while the facts in the slots stay exact. Domain-neutral: each domain supplies its own
 * templates and slot values. Work per call is a few string scans; no regex compilation per turn.
 */

/** Slot values by name (`{order}` → `slots.order`). */
export type Slots = Readonly<Record<string, string>>;

/** Expands one template: picks one branch of every `[a|b]` group and fills every `{slot}`.
 * @throws {Error} when a slot has no value (a template bug, never user input). */
export function expand(rng: Rng, template: string, slots: Slots = {}): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const next = nextSpecial(template, i);
    // literal text up to the next group or slot is copied in one piece
    if (next > i) out += template.slice(i, next);
    if (next === template.length) break;
    if (template.charCodeAt(next) === OPEN_GROUP) {
      const end = closing(template, next);
      const branches = split(template.slice(next + 1, end));
      out += expand(rng, rng.pick(branches), slots);
      i = end + 1;
    } else {
      const end = template.indexOf('}', next);
      const name = template.slice(next + 1, end);
      const value = slots[name];
      if (value === undefined) throw new Error(`template slot {${name}} has no value: ${template}`);
      out += value;
      i = end + 1;
    }
  }
  return out;
}

const OPEN_GROUP = 91; // '['
const OPEN_SLOT = 123; // '{'

/** The index of the next `[` or `{` at or after `from` (the text's length when there is none). */
function nextSpecial(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_GROUP || c === OPEN_SLOT) return i;
  }
  return text.length;
}

function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  throw new Error(`unbalanced [ in template: ${text}`);
}

function split(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '[') depth++;
    else if (body[i] === ']') depth--;
    else if (body[i] === '|' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** Picks one of `templates` and expands it, then tidies spacing and capitalises the first letter. */
export function say(rng: Rng, templates: readonly string[], slots: Slots = {}): string {
  return tidy(expand(rng, rng.pick(templates), slots));
}

/** Collapses doubled spaces and spaces before punctuation left by empty branches; capitalises the start. */
export function tidy(text: string): string {
  // each rewrite only when its pattern occurs (most expansions need none of them)
  let t = text;
  if (t.includes('  ')) t = t.replace(/ {2,}/g, ' ');
  if (SPACE_BEFORE_PUNCT.test(t)) t = t.replace(/ ([,.?!])/g, '$1');
  if (COMMA_AFTER_STOP.test(t)) t = t.replace(/([.?!]),/g, '$1');
  t = t.trim();
  return t.length === 0 ? t : `${t[0]?.toUpperCase()}${t.slice(1)}`;
}

const SPACE_BEFORE_PUNCT = / [,.?!]/;
const COMMA_AFTER_STOP = /[.?!],/;

/** The last sentence of `text` that ends with a question mark (what a reply should answer), lower-cased. */
export function lastQuestion(text: string): string {
  const end = text.lastIndexOf('?');
  if (end < 0) return '';
  const before = text.slice(0, end);
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('! '), before.lastIndexOf(': '));
  return text.slice(start < 0 ? 0 : start + 2, end + 1).toLowerCase();
}
