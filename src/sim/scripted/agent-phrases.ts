import type { Rng } from '../../core/rng.js';
import { moneyText } from '../../tasks/communicate.js';
import { say } from './grammar.js';

/**
 * Lines every scripted (oracle) agent says whatever its domain (docs/conversations.md): the closing question of
 * a proposal, the offer of more help, the greeting question, dollar amounts and τ²'s fixed transfer message.
 * Paraphrase-grammar templates in cove's own words.
 */

/** A dollar amount that contains Python's `str(round(x, 2))` (what τ²'s communicate check looks for). */
export function dollars(x: number): string {
  const fixed = Math.abs(x).toFixed(2);
  const text = fixed.includes(moneyText(Math.abs(x))) ? fixed : moneyText(Math.abs(x));
  return `$${text}`;
}

/** The closing question of a proposal. */
export function ask(rng: Rng): string {
  return say(rng, [
    'Shall I go ahead?',
    'Would you like me to proceed?',
    'Do you want me to go ahead with this?',
    'Can you confirm that this is what you want?',
    'Should I go ahead and submit it?',
    'Is it okay to proceed?',
    'Please confirm [and I will take care of it|so I can proceed].',
    'Could you confirm [so I can proceed|that I should go ahead]?',
  ]);
}

export function anythingElse(rng: Rng): string {
  return say(rng, [
    'Is there anything else I can help you with[ today|]?',
    'Can I help you with anything else?',
    'Anything else I can do for you[ today|]?',
    'What else can I do for you?',
    'Is there something else you need?',
  ]);
}

/** The agent's reply when the customer has not yet said what they need. */
export function howCanIHelp(rng: Rng): string {
  return say(rng, [
    'How can I help you[ today|]?',
    'What can I do for you?',
    'What would you like me to help you with?',
  ]);
}

export const TRANSFER_TEXT = 'YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.';
