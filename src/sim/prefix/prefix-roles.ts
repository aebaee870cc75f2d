import type { Rng } from '../../core/rng.js';
import type { ChatMessage } from '../messages.js';
import type { Agent, AgentTurn, UserSimulator, UserTurn, VisibleMessage } from '../roles.js';
import {
  type ConversationPrefix,
  GREETING_MESSAGE,
  GREETING_VISIBLE,
  visiblePrefix,
} from './conversation-prefix.js';

/**
 * The roles of an episode that continues a conversation prefix (`cove generate --from`, docs/conversations.md).
 * The scripted roles were written for a conversation that opens with the greeting, so they are shown the episode
 * as if it had (the prefix is hidden from them) and the scripted user's first message gets a bridge sentence;
 * model users see the prefix (their prompt tells them the conversation so far) and model agents see everything.
 */

/** Sentences that lead from the earlier conversation to the customer's own request (one is drawn per episode). */
const BRIDGES = [
  'Thanks for that. While I have you, there is something else I need help with.',
  'Okay, thank you. There is one more thing I wanted to ask about.',
  'Thanks. I also need help with something else.',
  'Got it, thanks. Now, the other reason I got in touch.',
  'Great, thank you. Something different now.',
  'Alright, thanks. Can you also help me with another thing?',
] as const;

/**
 * A leading greeting or acknowledgement of an opening message ("Hi!", "Good morning.", "Sure thing."), dropped after
 * a bridge: the bridge already answers the agent's last reply.
 */
const LEAD_IN =
  /^(?:(?:hi|hello|hey|good (?:morning|afternoon|evening))(?: there)?|sure(?: thing)?|of course|certainly|very well|(?:um|hmm),? okay|okay|ok|k|alright|fine)[.!,]?\s+/i;

/** `opening` continued from an earlier conversation: a bridge sentence, then the request without its lead-in. */
export function bridged(rng: Rng, opening: string): string {
  let rest = opening;
  for (let i = 0; i < 2; i++) rest = rest.replace(LEAD_IN, '');
  const request = rest === '' ? opening : rest.charAt(0).toUpperCase() + rest.slice(1);
  return `${rng.pick(BRIDGES)} ${request}`;
}

/**
 * A user simulator shown a window of the conversation: the visible messages from `skip` on, after `lead` when
 * given; its first turn passes through `first` (the scripted user's bridge).
 */
class WindowedUser implements UserSimulator {
  readonly #inner: UserSimulator;
  readonly #skip: number;
  readonly #lead: VisibleMessage | undefined;
  #first: ((content: string) => string) | undefined;

  constructor(
    inner: UserSimulator,
    skip: number,
    lead: VisibleMessage | undefined,
    first?: (content: string) => string,
  ) {
    this.#inner = inner;
    this.#skip = skip;
    this.#lead = lead;
    this.#first = first;
    if (inner.enactedEvents !== undefined) this.enactedEvents = () => inner.enactedEvents?.() ?? [];
  }

  enactedEvents?: () => readonly string[];

  async respond(visible: readonly VisibleMessage[], signal?: AbortSignal): Promise<UserTurn> {
    const window = visible.slice(this.#skip);
    const turn = await this.#inner.respond(
      this.#lead === undefined ? window : [this.#lead, ...window],
      signal,
    );
    const first = this.#first;
    this.#first = undefined;
    return first === undefined ? turn : { ...turn, content: first(turn.content) };
  }
}

/** Whether `prefix` identified the task's customer `userId` (the agent then knows who they are). */
function identifies(prefix: ConversationPrefix, userId: string | undefined): userId is string {
  return prefix.userId !== undefined && prefix.userId === userId;
}

/**
 * The scripted user continuing `prefix`: it sees the greeting and then only the episode's own messages, and its
 * opening request is led in by a bridge sentence drawn with `rng`. When the prefix identified the task's customer
 * `userId`, the user is told the agent knows them (it gives no identity unasked).
 */
export function scriptedUserAfter(
  user: UserSimulator,
  prefix: ConversationPrefix,
  rng: Rng,
  userId?: string,
): UserSimulator {
  if (identifies(prefix, userId)) user.knownToAgent?.();
  return new WindowedUser(user, visiblePrefix(prefix.messages).length, GREETING_VISIBLE, (opening) =>
    bridged(rng, opening),
  );
}

/**
 * A model user continuing `prefix`: its chat starts at the agent's last reply of the prefix (the earlier messages
 * are in its system prompt, {@link conversationSoFar}).
 */
export function modelUserAfter(user: UserSimulator, prefix: ConversationPrefix): UserSimulator {
  return new WindowedUser(user, visiblePrefix(prefix.messages).length - 1, undefined);
}

/**
 * The scripted (oracle) agent continuing `prefix`: it sees the greeting and then the episode's own messages. Its
 * tool-call ids (`call_1`, …) are renamed where the prefix already used them (`call_1_2`, …), so that ids stay
 * unique within the conversation, and named back in the results it is shown. When the prefix identified the task's
 * customer `userId`, the agent is told who they are ({@link Agent.knowUser}) and does not ask again.
 */
export function scriptedAgentAfter(agent: Agent, prefix: ConversationPrefix, userId?: string): Agent {
  if (identifies(prefix, userId)) agent.knowUser?.(userId);
  const skip = prefix.messages.length;
  const used = new Set(
    prefix.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : [])),
  );
  const original = new Map<string, string>();
  const rename = (id: string): string => {
    if (!used.has(id)) return id;
    let n = 2;
    while (used.has(`${id}_${n}`)) n++;
    original.set(`${id}_${n}`, id);
    return `${id}_${n}`;
  };
  return {
    async respond(messages: readonly ChatMessage[], signal?: AbortSignal): Promise<AgentTurn> {
      const own = messages
        .slice(skip)
        .map((m) =>
          m.role === 'tool' && original.has(m.tool_call_id)
            ? { ...m, tool_call_id: original.get(m.tool_call_id) as string }
            : m,
        );
      const turn = await agent.respond([GREETING_MESSAGE, ...own], signal);
      const calls = turn.message.tool_calls;
      if (calls === undefined || !calls.some((c) => used.has(c.id))) return turn;
      return {
        ...turn,
        message: { ...turn.message, tool_calls: calls.map((c) => ({ ...c, id: rename(c.id) })) },
      };
    },
  };
}

/**
 * The section appended to a model user's system prompt when it continues `prefix`: the conversation so far (up
 * to the agent's last reply, which opens its chat) and that it now brings up its own need.
 */
export function conversationSoFar(prefix: ConversationPrefix): string {
  const visible = visiblePrefix(prefix.messages);
  const earlier = visible.slice(0, -1);
  const transcript =
    earlier.length === 0
      ? '(the agent spoke first; its message opens the chat below)'
      : earlier.map((m) => `${m.role === 'user' ? 'You' : 'Agent'}: ${m.content}`).join('\n');
  return `# The conversation so far
This is not the start of the conversation: you have already been talking with this agent about something else.
Here is what was said before the agent's latest reply (which opens the chat below):
<conversation_so_far>
${transcript}
</conversation_so_far>
Carry on from there as the same person. In your next message, react briefly to the agent's latest reply if it
calls for it, then bring up what you want (described under <scenario>), the way someone adds one more thing in
an ongoing chat. Do not return to the earlier topic unless the agent does, and do not greet the agent again.${
    prefix.userId === undefined
      ? ''
      : '\nThe agent already knows who you are (it looked up your account earlier in this conversation): do not give\nyour details again unless it asks for them.'
  }`;
}
