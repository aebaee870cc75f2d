import type { Rng } from '../../../core/rng.js';
import { say } from '../../../sim/scripted/grammar.js';
import { paymentText } from '../synthesis/phrases.js';
import type { PaymentRef, UserRef } from '../synthesis/references.js';

/**
 * The scripted customer's replies (docs/conversations.md): identity, yes to a proposal, a change of mind, thanks,
 * push-back, side questions, the last message and answers about one detail. Paraphrase-grammar templates; a yes
 * and the last message name what they are about, as customers do.
 */

export {
  acceptRefusal,
  askHuman,
  connector,
  decline,
  thanks,
  transferred,
  yes,
} from '../../../sim/scripted/user-phrases.js';

/** The identity details as the customer gives them. */
export function identityText(rng: Rng, user: UserRef, override?: { email?: string; zip?: string }): string {
  if (user.strategy === 'email') {
    const email = override?.email ?? user.email;
    return lowerStart(
      say(rng, ['my email is {e}', "it's {e}", 'the email is {e}', 'my account email is {e}'], { e: email }),
    );
  }
  return lowerStart(
    say(
      rng,
      [
        "I'm {f} {l}, zip code {z}",
        'my name is {f} {l} and my zip code is {z}',
        '{f} {l}, zip {z}',
        "it's {f} {l}, zip code {z}",
      ],
      { f: user.first_name, l: user.last_name, z: override?.zip ?? user.zip },
    ),
  );
}

/** The identity as a clause that may follow a comma ("Okay, my email is …"): its lead word in lower case. */
function lowerStart(text: string): string {
  return text.replace(/^(My|It's|The)\b/, (w) => w.toLowerCase());
}

export function identify(rng: Rng, identity: string, forgotEmail: boolean): string {
  const lead = forgotEmail
    ? say(rng, [
        "I don't remember [which email I used|my email address], but",
        "I can't recall the email, sorry.",
        '[Hmm, |]not sure about the email, but',
      ])
    : say(rng, ['Sure,', 'Of course.', 'Yes,', 'Okay,', 'No problem:', '']);
  return say(rng, ['{lead} {id}.'], { lead, id: identity });
}

export function correctIdentity(rng: Rng, identity: string): string {
  return say(
    rng,
    [
      '[Oh, sorry|Oops|My mistake], [I mistyped it|that was a typo|I got that wrong]. {id}.',
      '[Sorry|Ah], let me try again: {id}.',
      'Hmm, try this: {id}.',
    ],
    { id: identity },
  );
}

/** The corrected order after the agent could not find the one first given (`order`: as the customer names it). */
export function correctOrder(rng: Rng, order: string): string {
  return say(
    rng,
    [
      '[Oh, sorry|Oops|My mistake], [I mistyped the number|that was a typo|I got a digit wrong]. It is {o}.',
      '[Sorry|Ah], let me check again: {o}.',
      '[Hmm|Sorry], I meant {o}.',
    ],
    { o: order },
  );
}

export function changeMind(rng: Rng, reject: boolean, what: string, field: 'payment' | 'reason'): string {
  const lead = reject
    ? say(rng, ["No, that's not quite right.", 'Hmm, no, wait.', "No, sorry, that's not what I want."])
    : say(rng, ["Actually, I've changed my mind.", 'Wait, on second thought,', 'Hold on, actually,']);
  const body =
    field === 'payment'
      ? say(
          rng,
          [
            "[Please use|Let's use] {w} instead.",
            'Could you use {w} instead?',
            'I would rather [use|go with] {w}.',
          ],
          {
            w: what,
          },
        )
      : say(rng, ['[Please put|Make] the reason "{w}" instead.', 'The reason should be "{w}".'], { w: what });
  // after a lead that ends in a comma the body goes on in lower case ("Wait, on second thought, the reason …")
  return lead.endsWith(',') && !/^I\b/.test(body)
    ? `${lead} ${body[0]?.toLowerCase()}${body.slice(1)}`
    : `${lead} ${body}`;
}

/** A reminder of a request already stated (`topic`: what it is about). */
export function nudge(rng: Rng, topic: string): string {
  return say(
    rng,
    [
      '[Thanks!|Great.|Perfect.|Good.|Okay.] [And what about|Now, about|Can we do|Next,] the other thing I mentioned[, with {t}|]?',
      '[Thank you.|Good.|Nice.] [What about|And|Now for] my other request[ about {t}|]?',
      '[Great|Thanks], now [the|my] [request|question] about {t}[, please|].',
      'And {t}? [I mentioned it at the start.|That was my second request.|]',
    ],
    { t: topic },
  );
}

/** Push-back on a refusal (`topic`: what was refused). */
export function pushBack(rng: Rng, topic: string): string {
  return say(
    rng,
    [
      "[Really?|Are you sure?|Hmm.|Seriously?] [Can't you make an exception|Is there really nothing you can do][ for {t}| this once|]? [I really need this.|It's important to me.|It's for a gift.|]",
      'Is there no way to make an exception [for {t}|here|just this once]? [I am a regular customer.|It would help me a lot.|I have ordered from you for years.]',
      '[But|Come on,] [I really need|I was counting on] [this|{t}]. [Are you sure|Is there really nothing you can do|Could you make an exception]?',
    ],
    { t: topic },
  );
}

export function sideQuestion(rng: Rng, topic: string): string {
  return topic === 'products'
    ? say(rng, [
        '[Quick question|By the way|Out of curiosity]: what [kinds|types] of products do you [sell|carry]?',
        'Also, what [kinds|types] of products do you sell these days?',
      ])
    : say(rng, [
        '[By the way|Also|Quick question], how long does a refund [usually |]take?',
        'How long does it take for a refund to [come through|arrive|show up]?',
      ]);
}

export function afterSide(rng: Rng, next: string): string {
  return say(rng, ['[Good to know|Thanks for the info|Got it|Okay, thanks]. {n}'], { n: next });
}

/**
 * The last message (`topic`: a product or order the conversation was about). `refused`: the last request was
 * refused, so the remark accepts that instead of calling it sorted or thanking for handling it.
 */
export function stop(rng: Rng, topic: string, refused = false): string {
  if (refused)
    return say(
      rng,
      [
        "[Okay|Alright|I see|Fair enough][, I understand| then|]. [That's all|That's everything|Nothing else][ for today| from me|][, thanks|][.|!] [Bye!|Have a nice day.|Take care.|Goodbye.|] ###STOP###",
        "[Oh well|Too bad about {t}|Pity about {t}][, but thanks for checking| - thanks for looking into it|]. [That's all|That's it|Nothing else] for today. [Bye.|Take care.|] ###STOP###",
      ],
      { t: topic },
    );
  return say(
    rng,
    [
      "[Thanks|Thank you|Many thanks|Thanks a lot|Thank you so much|Great, thanks|Perfect, thank you][ for your help| for sorting that out| for helping with {t}| for the quick help| for taking care of {t}|]! [That's all|That's everything|Nothing else|That's it|I'm all set|All good|That covers it][ for today| for now| from me|][.|!] [Bye!|Have a nice day.|Take care.|Goodbye.|] ###STOP###",
      "[No|Nope], [that's it|that's all|nothing else][, thanks| for today|]. [Glad|Happy] [that {t} is sorted|we got {t} sorted|it's done][.|!] ###STOP###",
      "[That's all I needed|That was everything|All done then][, thank you|, thanks|] - [glad {t} is sorted|thanks for handling {t}|{t} was the main thing]. [Bye!|Have a good one.|Cheers.] ###STOP###",
    ],
    { t: topic },
  );
}

/** Answers to the agent's questions about one detail. */
export function answerOrder(rng: Rng, text: string): string {
  return say(
    rng,
    [
      "[It's|That's|It is] {o}.",
      '{o}[.|, I think.|, if I remember right.]',
      'The one [I mean is|I am talking about is|in question is] {o}.',
      '[Oh, |Sorry, |][I mean|I meant] {o}.',
      '[Let me check... |Hmm, ]{o}.',
    ],
    { o: text },
  );
}

export function answerItems(rng: Rng, text: string): string {
  return say(
    rng,
    [
      "[It's|That's|It is] {i}.",
      '{i}[.|, please.|, just that.]',
      '[I mean|Just|Only] {i}.',
      '[That would be|Those would be] {i}.',
    ],
    { i: text },
  );
}

export function answerPayment(rng: Rng, ref: PaymentRef | string): string {
  const p = typeof ref === 'string' ? ref : paymentText(ref, rng);
  return say(
    rng,
    [
      "[Please use|Use|Put it on|Let's use|Go with|I'd like to use] {p}[, please|].",
      '{p}[, please|, I guess|, thanks|].',
      '[Hmm, |Oh, |][I think |]{p} [would be best|is fine|works].',
      '[That would be|It should be|Make it] {p}.',
    ],
    { p },
  );
}

export function answerAddress(rng: Rng, text: string): string {
  return say(
    rng,
    [
      'The address is {a}.',
      "It's {a}.",
      '{a}.',
      '[Please use|Send it to|Use] {a}.',
      'The [new |]one is {a}.',
    ],
    { a: text },
  );
}

export function answerReason(rng: Rng, reason: string): string {
  return say(rng, ["It's {r}.", '{r}.', 'The reason is: {r}.'], { r: reason });
}

export function answerReplacement(rng: Rng, text: string): string {
  return say(
    rng,
    [
      'I would like {t}.',
      '{t}, please.',
      'I want {t}.',
      "[I'd prefer|I was hoping for|Ideally] {t}.",
      '[Please make it|Make it] {t}.',
    ],
    { t: text },
  );
}
