import type { Rng } from '../../../core/rng.js';
import { expand, say } from '../../../sim/scripted/grammar.js';

/**
 * The airline scripted customer's own lines (docs/airline.md, "Scripted roles"): the opening, its user id (and the
 * correction after a mistyped one), the answer about one detail, push-back on a refusal and the last message. The
 * domain-neutral lines (yes, thanks, accepting a refusal, asking for a human) are shared
 * (src/sim/scripted/user-phrases.ts).
 */

/** The user id as a clause that may follow a comma ("Okay, my user id is …"), in lower case. */
export function identityText(rng: Rng, userId: string): string {
  return expand(rng, rng.pick(['my user id is {u}', "it's {u}", 'the user id is {u}', 'user id {u}']), {
    u: userId,
  });
}

export function identify(rng: Rng, identity: string): string {
  return say(rng, ['{lead} {id}.'], {
    lead: say(rng, ['Sure,', 'Of course,', 'Yes,', 'Okay,', '']),
    id: identity,
  });
}

export function correctIdentity(rng: Rng, identity: string): string {
  return say(
    rng,
    [
      '[Oh, sorry|Oops|My mistake], [I mistyped it|that was a typo]. {I}.',
      '[Sorry|Ah], let me try again: {id}.',
    ],
    { id: identity, I: `${identity[0]?.toUpperCase()}${identity.slice(1)}` },
  );
}

export function opening(rng: Rng, core: string, identity?: string): string {
  const greet = say(rng, ['Hi!', 'Hello.', 'Hi there,', 'Hello,', '', 'Good afternoon.']);
  const lead = greet.endsWith(',')
    ? `${greet} ${core[0]?.toLowerCase()}${core.slice(1)}`
    : `${greet} ${core}`;
  if (identity === undefined) return lead.trim();
  return `${lead.trim()} ${say(rng, ['{I}.', 'By the way, {id}.'], { id: identity, I: `${identity[0]?.toUpperCase()}${identity.slice(1)}` })}`;
}

/** An answer about one detail (`text`: the detail as the customer says it). */
export function answer(rng: Rng, text: string): string {
  return say(
    rng,
    [
      "[It's|That's|It is] {t}.",
      '{t}[.|, please.]',
      '[I mean|That would be] {t}.',
      // no "Let me see..." here: a persona's opener often is one ("Um, let me see."), and two in a row read badly
      'Hmm, {t}.',
    ],
    { t: text },
  );
}

export function pushBack(rng: Rng, topic: string): string {
  return say(
    rng,
    [
      "[Really?|Are you sure?|Hmm.] [Can't you make an exception|Is there really nothing you can do][ for {t}| this once|]? [I fly with you a lot.|It's important to me.|]",
      'Is there no way to make an exception [for {t}|here|just this once]? [I am a loyal customer.|It would help me a lot.]',
    ],
    { t: topic },
  );
}

/** The last message after a refused last request (no thanks for help that was not given). */
export function stopAfterRefusal(rng: Rng): string {
  return say(rng, [
    "[That's all|That's everything|Nothing else][ for today| for now|]. [Bye.|Goodbye.|] ###STOP###",
    "[I'll leave it there|I'll think about it], [then|thanks]. ###STOP###",
  ]);
}

/**
 * The last message (`topic`: what the conversation was about). `refused`: the last request was refused, so the
 * remark accepts that instead of calling it sorted or thanking for handling it.
 */
export function stop(rng: Rng, topic: string, refused = false): string {
  if (refused)
    return say(
      rng,
      [
        "[Okay|Alright|I see|Fair enough][, I understand| then|]. [That's all|That's everything|Nothing else][ for today| from me|][, thanks|][.|!] [Bye!|Have a nice day.|Take care.|Goodbye.|] ###STOP###",
        "[Oh well|Too bad|Pity][, but thanks for checking| - thanks for looking into it|]. [That's all|That's it|Nothing else] for today. [Bye.|Take care.|] ###STOP###",
      ],
      { t: topic },
    );
  return say(
    rng,
    [
      "[Thanks|Thank you|Many thanks|Great, thanks][ for your help| for sorting that out| for helping with {t}|]! [That's all|That's everything|Nothing else|I'm all set][ for today| for now|][.|!] [Bye!|Have a nice day.|Take care.|] ###STOP###",
      "[No|Nope], [that's it|that's all|nothing else][, thanks| for today|]. [Glad|Happy] [that {t} is sorted|it's done][.|!] ###STOP###",
    ],
    { t: topic },
  );
}
