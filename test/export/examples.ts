import type { ExportConversation } from '../../src/export/conversation.js';
import type { ExportRecord } from '../../src/export/select.js';
import type { ChatMessage } from '../../src/sim/messages.js';

/** The example conversation of training-formats §2.1–2.4 ("Where is order 42?"), as cove carries it. */
export const ORDER42: ExportConversation = {
  id: 't42-0',
  taskId: 't42',
  taskIndex: 0,
  trial: 0,
  attempt: 0,
  domain: 'retail',
  system: 'You are a retail support agent.',
  messages: [
    { role: 'user', content: 'Where is order 42?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_order', arguments: '{"order_id":"42"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', name: 'get_order', content: '{"status":"shipped"}' },
    { role: 'assistant', content: 'Order 42 has shipped.' },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_order',
        description: 'Look up an order',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      },
    },
  ],
  dataSource: 'cove/retail/sandbox',
  benchmarkData: false,
  reward: 1,
  constraintKinds: ['information'],
};

const cancelCall = (n: string) => ({
  id: `call_${n}`,
  type: 'function' as const,
  function: { name: 'cancel_order', arguments: `{"order_id": "${n}"}` },
});

/** Two calls in one turn, the fixed greeting first and the user's stop turn last. */
export const CANCEL2: ExportConversation = {
  ...ORDER42,
  id: 't7-0',
  taskId: 't7',
  messages: [
    { role: 'assistant', content: 'Hi! How can I help you today?' },
    { role: 'user', content: 'Please cancel orders 1 and 2.' },
    { role: 'assistant', content: null, tool_calls: [cancelCall('1'), cancelCall('2')] },
    { role: 'tool', tool_call_id: 'call_1', name: 'cancel_order', content: 'cancelled 1' },
    { role: 'tool', tool_call_id: 'call_2', name: 'cancel_order', content: 'cancelled 2' },
    { role: 'assistant', content: 'Both orders are cancelled.' },
    { role: 'user', content: 'Thanks! ###STOP###' },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'cancel_order',
        description: 'Cancel an order',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      },
    },
  ],
};

/** A turn that says something and calls a tool at once. */
export const TEXT_AND_CALL: ExportConversation = {
  ...ORDER42,
  messages: [
    { role: 'user', content: 'Where is order 42?' },
    { ...(ORDER42.messages[1] as ChatMessage & { role: 'assistant' }), content: 'Let me look that up.' },
    ...ORDER42.messages.slice(2),
  ],
};

/** A trajectory record holding training-formats §5's τ² example conversation. */
export function order42Record(overrides: Partial<ExportRecord> = {}): ExportRecord {
  return {
    id: 'sim-0001',
    run: 'run-x',
    task_id: 't42',
    task_index: 0,
    domain: 'retail',
    trial: 0,
    attempt: 0,
    seed: 300,
    agent: 'oracle',
    user: 'scripted',
    settings: { semantics: 'parity', text: 'cove', guidelines: 'scripted' },
    db_sha256: 'x',
    messages: [
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      ...ORDER42.messages,
      { role: 'user', content: 'Thanks! ###STOP###' },
    ],
    tools: ORDER42.tools,
    termination_reason: 'user_stop',
    verification: {
      score: 1,
      stateMatch: true,
      tau2Reward: 1,
      constraints: [],
      redundant: [],
      terminationOk: true,
    },
    usage: { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 },
    timing_ms: 9100,
    cove_version: 'test',
    leaks: 0,
    invalid_tool_arguments: 0,
    unknown_tool_calls: 0,
    benchmark_data: false,
    ...overrides,
  };
}
