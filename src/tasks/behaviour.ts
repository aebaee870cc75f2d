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
