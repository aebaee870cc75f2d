import { describe, expect, it } from 'vitest';
import {
  classifyQuestion,
  hasClarifyingQuestion,
  sentenceTemplate,
  tokenize,
  USER_TEXT_CUES,
} from '../../src/run/conversation-cues.js';
import { type ConversationRecord, conversationMetrics } from '../../src/run/conversation-metrics.js';
import { summarize } from '../../src/run/summary.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import type { ChatMessage } from '../../src/sim/messages.js';

/**
 * The conversation measures of issue 13 item 6 on small hand-written conversations; every expected value below is
 * counted by hand from the texts in this file (docs/conversations.md, "Measures").
 */

const user = (content: string): ChatMessage => ({ role: 'user', content });
const agent = (content: string): ChatMessage => ({ role: 'assistant', content });
const call = (id: string, name: string, args: object): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string, name: string, content: string): ChatMessage => ({
  role: 'tool',
  tool_call_id: id,
  name,
  content,
});
const conv = (id: string, messages: ChatMessage[], enacted_events?: string[]): ConversationRecord => ({
  id,
  messages,
  ...(enacted_events === undefined ? {} : { enacted_events }),
});

describe('tokens', () => {
  it("lower-cased runs of [a-z0-9'] and single punctuation marks", () => {
    expect(tokenize("I'd like #W123, please!!")).toEqual([
      "i'd",
      'like',
      '#',
      'w123',
      ',',
      'please',
      '!',
      '!',
    ]);
    // the typographic apostrophe is not in [a-z0-9']: it is a token of its own
    expect(tokenize('I’d')).toEqual(['i', '’', 'd']);
    expect(tokenize('  ')).toEqual([]);
  });
});

describe('distinct-2 of user text', () => {
  it('below 4,000 tokens every sample is the whole set: distinct ÷ all bigrams, within messages only', () => {
    // bigrams: "yes please" | "yes please" | "no thanks", "thanks ." → 4 bigrams, 3 distinct; the stop marker and
    // the message it leaves empty add none, and no bigram spans two messages ("please no" is not one)
    const m = conversationMetrics([
      conv('a', [agent('Hi! How can I help you today?'), user('Yes please')]),
      conv('b', [user('yes please ###STOP###'), user('###STOP###')]),
      conv('c', [user('no thanks.')]),
    ]);
    expect(m.user_tokens).toBe(2 + 2 + 3);
    expect(m.distinct_2_user).toBe(0.75);
  });

  it('a sample stops adding conversations once it holds ≥ 4,000 tokens', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    // two identical 4,000-token conversations: one suffices; its 3,999 bigrams are all distinct → 1
    // (both would give 3,999 distinct of 7,998 = 0.5)
    expect(
      conversationMetrics([conv('a', [user(words(4000))]), conv('b', [user(words(4000))])]).distinct_2_user,
    ).toBe(1);
    // three identical 2,000-token conversations: two are needed (4,000 tokens) → 1,999 of 3,998 = 0.5
    // (all three would give 1,999 of 5,997 = 0.3333)
    const three = [1, 2, 3].map((i) => conv(`c${i}`, [user(words(2000))]));
    expect(conversationMetrics(three).distinct_2_user).toBe(0.5);
    // 3,999 tokens each: the first conversation is not enough, so both are taken → 3,998 of 7,996 = 0.5
    expect(
      conversationMetrics([conv('a', [user(words(3999))]), conv('b', [user(words(3999))])]).distinct_2_user,
    ).toBe(0.5);
  });
});

describe('repeated user messages', () => {
  it('a user message identical to one in another conversation; repeats within one conversation do not count', () => {
    const m = conversationMetrics([
      conv('a', [user('Hello there'), user('Yes.')]),
      conv('b', [user('Yes.'), user('bye ###STOP###')]),
      conv('c', [user('Yes.'), user('Yes.')]),
      conv('d', [user('bye')]),
      conv('e', [user('same'), user('same'), user('###STOP###')]),
    ]);
    // messages: 2 + 2 + 2 + 1 + 2 = 9 (the stop-only message is empty and not counted)
    // repeated: a "Yes.", b "Yes.", c "Yes." ×2, b "bye" (= d "bye" once the marker is removed), d "bye" = 6
    // "yes." and "Yes." would differ: identity is exact
    expect(m.user_messages).toBe(9);
    expect(m.repeated_user_messages).toBe(Number((6 / 9).toFixed(4)));
  });
});

describe('clarifying questions', () => {
  it('classifies agent questions: authentication, confirmation of a write, offer of help, else clarifying', () => {
    expect(classifyQuestion('Could you please provide the email address associated with your account?')).toBe(
      'authentication',
    );
    expect(
      classifyQuestion('Could you please provide those details?', 'I can look you up by name and zip code.'),
    ).toBe('authentication');
    expect(classifyQuestion('Would you like me to cancel order #W1 now?')).toBe('confirmation');
    expect(classifyQuestion('Is this correct?')).toBe('confirmation');
    expect(classifyQuestion('Have you included all the items you want to modify?')).toBe('confirmation');
    expect(classifyQuestion('Is there anything else I can help you with?')).toBe('offer');
    expect(classifyQuestion('How can I help you today?')).toBe('offer');
    expect(classifyQuestion('Which order do you mean?')).toBe('clarifying');
    // a choice between two actions asks the user to decide: not a confirmation
    expect(classifyQuestion('Would you like to cancel the order, or keep it and change the address?')).toBe(
      'clarifying',
    );
    expect(classifyQuestion('Could you please confirm which lamp you want?')).toBe('clarifying');
    expect(classifyQuestion('To proceed, could you tell me the order number?')).toBe('clarifying');
  });

  it('share of conversations with at least one agent turn holding a clarifying question', () => {
    const m = conversationMetrics([
      conv('a', [agent('Hi! How can I help you today?'), user('hi')]),
      conv('b', [agent('Could you please provide your email?'), agent('Please confirm (yes/no).')]),
      conv('c', [agent('I found two lamps. Which one do you mean?')]),
      conv('d', [agent('Done. Is there anything else?'), agent('Thanks.')]),
    ]);
    // only c
    expect(m.clarifying_question).toBe(0.25);
    expect(hasClarifyingQuestion('Thanks! Would you like to proceed? Which color do you want?')).toBe(true);
    expect(hasClarifyingQuestion('No question here.')).toBe(false);
  });
});

describe('partial information, change of mind, push-back and transfer', () => {
  it('counted from enacted events and from the text, side by side', () => {
    const m = conversationMetrics([
      conv('a', [user("I don't remember my email, sorry.")], ['partial_info']),
      conv(
        'b',
        [user('Actually, I want a refund instead.'), user('Can’t you make an exception?')],
        ['reject_proposal', 'push_back'],
      ),
      conv('c', [user('Please cancel it.'), call('t1', 'transfer_to_human_agents', { summary: 'x' })], []),
      conv('d', [user('I’m not sure which order it was.')]),
    ]);
    // events: 3 records carry enacted_events (a, b, c); d has none and is left out of from_events
    expect(m.partial_information).toEqual({ from_events: Number((1 / 3).toFixed(4)), from_text: 0.5 });
    expect(m.change_of_mind).toEqual({ from_events: Number((1 / 3).toFixed(4)), from_text: 0.25 });
    expect(m.push_back).toEqual({ from_events: Number((1 / 3).toFixed(4)), from_text: 0.25 });
    expect(m.transfer).toEqual({ from_events: 0, from_text: 0.25 });
  });

  it('from_events is null when no record carries enacted events', () => {
    expect(conversationMetrics([conv('a', [user('hi')])]).partial_information.from_events).toBeNull();
  });

  it('the text cues, sentence by sentence', () => {
    const partial = USER_TEXT_CUES.partial_information;
    expect(partial.test('I think my order number is #W88.')).toBe(true);
    expect(partial.test("I don't have the order number handy.")).toBe(true);
    expect(partial.test('I bought it about two weeks ago.')).toBe(true);
    expect(partial.test("I don't have any other questions.")).toBe(false);
    expect(USER_TEXT_CUES.change_of_mind.test("On second thought, let's keep it.")).toBe(true);
    expect(USER_TEXT_CUES.change_of_mind.test('I would like a red one instead.')).toBe(false);
    expect(USER_TEXT_CUES.push_back.test('Are you sure there is nothing you can do?')).toBe(true);
    expect(USER_TEXT_CUES.push_back.test('Yes, please go ahead.')).toBe(false);
  });
});

describe('tool errors and tools used', () => {
  it('a tool result starting with "Error" (case-sensitive); tools as a sorted set', () => {
    const m = conversationMetrics([
      conv('a', [
        call('1', 'get_order_details', { order_id: '#W1' }),
        result('1', 'get_order_details', 'Error: Order not found'),
      ]),
      conv('b', [
        call('2', 'get_user_details', { user_id: 'u' }),
        result('2', 'get_user_details', 'error: lower case'),
      ]),
      conv('c', [
        call('3', 'get_order_details', { order_id: '#W2' }),
        result('3', 'get_order_details', '{"x": "Error"}'),
      ]),
    ]);
    expect(m.tool_error).toBe(Number((1 / 3).toFixed(4)));
    expect(m.tools_used).toEqual({ count: 2, names: ['get_order_details', 'get_user_details'] });
  });
});

describe('user sentence templates', () => {
  it('slots for ids and numbers, quoted spans, capitalised names and words of the tool values', () => {
    const none = new Set<string>();
    expect(sentenceTemplate('My name is Mei Kovacs and my zip code is 28236.', none)).toBe(
      'my name is <name> and my zip code is <id> .',
    );
    expect(sentenceTemplate('Sure, it’s mia.garcia2723@example.com.', none)).toBe('sure , it ’ s <id> .');
    expect(sentenceTemplate('I’d pick "no longer needed" please', none)).toBe('i ’ d pick <quoted> please');
    expect(sentenceTemplate('I want to return the desk lamp.', new Set(['desk', 'lamp']))).toBe(
      'i want to return the <value> .',
    );
  });

  it('share of the most frequent template among all user sentences', () => {
    const m = conversationMetrics([
      conv('a', [
        user('My name is Mei Kovacs and my zip code is 28236. I want to return the desk lamp.'),
        call('1', 'get_product_details', { product_id: '1' }),
        result('1', 'get_product_details', '{"name": "Desk Lamp", "options": {"color": "white"}}'),
      ]),
      conv('b', [
        user('My name is Sofia Li and my zip code is 78260.'),
        user('I want to return the white kettle.'),
        call('2', 'get_product_details', { product_id: '2' }),
        result('2', 'get_product_details', '{"name": "Electric Kettle", "color": "white"}'),
      ]),
      conv('c', [user('Thanks!')]),
    ]);
    // sentences: a ×2, b ×2, c ×1 = 5; "my name is <name> and my zip code is <id> ." ×2 and
    // "i want to return the <value> ." ×2 (desk lamp | white kettle, words of each conversation's own tool values);
    // the tie goes to the template first in code-unit order ("i …" < "my …")
    expect(m.top_user_template).toEqual({
      template: 'i want to return the <value> .',
      share: 0.4,
      sentences: 5,
      distinct: 3,
    });
  });
});

describe('order independence and empty input', () => {
  it('the same records in another order give the same measures', () => {
    const records = Array.from({ length: 12 }, (_, i) =>
      conv(`r${i}`, [
        user(`${'word '.repeat(300 + i)}tail${i % 3}`),
        agent(i % 2 === 0 ? 'Which one?' : 'OK.'),
      ]),
    );
    expect(conversationMetrics([...records].reverse(), 7)).toEqual(conversationMetrics(records, 7));
  });

  it('no conversations: zeros', () => {
    const m = conversationMetrics([]);
    expect(m.conversations).toBe(0);
    expect(m.distinct_2_user).toBe(0);
    expect(m.top_user_template).toEqual({ template: '', share: 0, sentences: 0, distinct: 0 });
  });
});

describe('summary.json → conversation', () => {
  it('measures the graded episodes (infrastructure failures left out)', () => {
    const record = (id: string, text: string, termination: string) =>
      ({
        id,
        task_index: 0,
        termination_reason: termination,
        messages: [user(text)],
        usage: { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 },
        leaks: 0,
        invalid_tool_arguments: 0,
        benchmark_data: false,
      }) as unknown as TrajectoryRecord;
    const s = summarize(
      'run-x',
      [record('a', 'Yes please', 'user_stop'), record('b', 'yes yes yes', 'infrastructure_error')],
      [],
      1,
    );
    // only "yes please" (1 bigram, distinct) is measured
    expect(s.conversation.conversations).toBe(1);
    expect(s.conversation.user_tokens).toBe(2);
    expect(s.conversation.distinct_2_user).toBe(1);
  });
});
