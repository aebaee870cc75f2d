import type { Rng } from '../core/rng.js';

/**
 * How a task's user behaves (docs/conversations.md), drawn from the task's seed and stored in the task's `cove`
 * block as `behaviour`: a persona (speaking style), a knowledge profile (what the user does not know or gets
 * wrong) and events (what happens in the conversation). Domain-neutral: a domain decides which knowledge entries
 * and events apply to a task and fills their details; the scripted user enacts them and the scenario text tells
 * a model-played user about them. The task's constraints always describe the user's final intent.
 */

/** Speaking styles of the scripted user. */
export const PERSONAS = [
  'terse',
  'chatty',
  'anxious',
  'confused',
  'formal',
  'friendly',
  'impatient',
] as const;
export type Persona = (typeof PERSONAS)[number];

/** One knowledge entry or event: its kind (see docs/conversations.md), the request it concerns, domain details. */
export interface BehaviourEntry {
  readonly kind: string;
  /** Index of the request (constraint) it concerns, when it concerns one. */
  readonly request?: number;
  readonly [detail: string]: unknown;
}

/** The `behaviour` object of a task's `cove` block. */
export interface Behaviour {
  readonly persona: Persona;
  readonly knowledge: readonly BehaviourEntry[];
  readonly events: readonly BehaviourEntry[];
}

/** The persona as a second-person description for `user_scenario.persona` (what a model-played user reads). */
export function personaText(persona: Persona): string {
  switch (persona) {
    case 'terse':
      return 'You write short, to-the-point messages, often without greetings or full sentences.';
    case 'chatty':
      return 'You are talkative and add small personal remarks to your messages, but you do get to the point.';
    case 'anxious':
      return 'You are a little worried about getting things right and ask for reassurance now and then.';
    case 'confused':
      return 'You are not very sure about the details and tend to describe things loosely at first.';
    case 'formal':
      return 'You write politely and formally, in complete sentences.';
    case 'friendly':
      return 'You are warm and relaxed and thank the agent often.';
    case 'impatient':
      return 'You are in a hurry and want things done quickly.';
  }
}

/** How likely a persona is to start a request with only part of what it wants (the agent must ask for the rest). */
export function partialTendency(persona: Persona): number {
  return persona === 'confused' ? 0.7 : persona === 'terse' || persona === 'impatient' ? 0.45 : 0.3;
}

/**
 * Shares of the behaviour draw that every domain uses the same way (docs/conversations.md): a wrong identity
 * detail given first (per task), push-back on a refused request (per refusal), a request for a human after the
 * push-back on the task's last request (per such push-back), and the first two requests stated in one message
 * (per task whose second request is stated in full).
 */
export const BEHAVIOUR_SHARES = {
  wrongDetail: 0.2,
  pushBack: 0.6,
  transfer: 0.35,
  twoRequests: 0.4,
} as const;

/**
 * `s` with one digit replaced by a different digit, as a user mistypes an identity detail (a string without
 * digits gets its first character doubled). Draws the position, then the shift (1–8).
 */
export function mistypeDigit(rng: Rng, s: string): string {
  const at = [...s].map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0);
  if (at.length === 0) return `${s.slice(0, 1)}${s}`;
  const i = rng.pick(at);
  const d = (Number(s[i]) + rng.int(1, 8)) % 10;
  return `${s.slice(0, i)}${d}${s.slice(i + 1)}`;
}

/**
 * The events of a refused request `request`: push-back (share `pushBack`), then, when it is the task's last
 * request, sometimes a request for a human (share `transfer`; the conversation ends with the transfer).
 */
export function refusalEvents(rng: Rng, request: number, last: boolean): BehaviourEntry[] {
  if (!rng.chance(BEHAVIOUR_SHARES.pushBack)) return [];
  const out: BehaviourEntry[] = [{ kind: 'push_back', request }];
  if (last && rng.chance(BEHAVIOUR_SHARES.transfer)) out.push({ kind: 'transfer', request });
  return out;
}
