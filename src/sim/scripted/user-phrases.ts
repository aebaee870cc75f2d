import type { Rng } from '../../core/rng.js';
import { say } from './grammar.js';

/**
 * Lines every scripted user says whatever its domain (docs/conversations.md): a yes naming what it is about, a
 * decline, thanks, the lead into the next request, accepting a refusal, asking for a human. Paraphrase-grammar
 * templates in cove's own words; a domain adds its own (identity, details, push-back, the last message).
 */

/** What a yes to a proposal is about: the action, often with a product name (`subject` from {@link subjectOf}). */
export function yes(rng: Rng, subject: string): string {
  return say(
    rng,
    [
      '[Yes|Yeah|Yep|Sure|Correct|Okay|Ok|Perfect, yes|Great, yes|Exactly|Yes, that is right][,|.|!] [please go ahead with {s}|go ahead with {s}|{s} sounds good|please proceed with {s}|I confirm {s}|do it|go ahead|please do|that works|let us do it|go for it|please proceed][.|!|]',
      "[Yes|Yep|Sure][,|.] [that is|that's] [what I want|exactly what I asked for|right][.|!] [Please go ahead|Go ahead|Proceed][ with {s}|].",
      '[That looks|That is|Looks] [correct|right|good][, go ahead|. Please proceed|. Yes|, yes please|].',
      '[Okay|Ok|Alright], [go ahead|please proceed][ with {s}|].',
      '[Okay|Ok|Alright], [confirmed|yes][ for {s}|, {s} it is|].',
      'Yes[, please|]. {S} [is what I want|is fine|works for me].',
    ],
    { s: subject, S: `${subject[0]?.toUpperCase()}${subject.slice(1)}` },
  );
}

export function decline(rng: Rng, restated: string): string {
  return say(rng, ['No, that is not what I asked for. {r}', "No, that's wrong. {r}"], { r: restated });
}

export function thanks(rng: Rng): string {
  return say(rng, [
    'Thanks!',
    'Thank you.',
    'Great, thank you.',
    'Perfect.',
    'Great!',
    'Cool, thanks.',
    'Okay, good.',
    'Wonderful.',
  ]);
}

/** What leads into the next request after an acknowledgement ('' sometimes). */
export function connector(rng: Rng): string {
  return say(rng, [
    'There is one more thing.',
    'I also have another request.',
    'One more thing:',
    'Also,',
    'Next,',
    '',
    'While I have you,',
    'And',
  ]);
}

export function acceptRefusal(rng: Rng): string {
  return say(rng, [
    '[I see|Oh|Ah], [that is a pity|too bad|what a shame], but I understand.',
    '[Oh|Hmm], okay. I understand[ the policy|].',
    '[Hmm, |]okay, [fair enough|I get it|if that is the policy|that makes sense].',
    "That's [disappointing|annoying|a shame], but [fine|okay|I understand].",
    '[Right|Alright], [I guess I will have to wait|nothing to be done then|understood].',
  ]);
}

export function askHuman(rng: Rng): string {
  return say(rng, [
    "Then I'd like to speak to a human agent, please.",
    'Can you transfer me to a human agent?',
    "[I'd rather|Let me] talk to a real person about this. Please transfer me to a human agent.",
  ]);
}

export function transferred(): string {
  return '###TRANSFER###';
}
