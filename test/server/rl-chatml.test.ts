import { describe, expect, it } from 'vitest';
import { parseChatMl } from '../../src/server/rl/chatml.js';

describe('parseChatMl: decoded ChatML with Hermes tool calls back into messages', () => {
  it('reads calls, responses in user turns, think blocks, a last turn without <|im_end|>', () => {
    const text = [
      '<|im_start|>system\nYou are an agent.<|im_end|>',
      '<|im_start|>assistant\nHi! How can I help you today?<|im_end|>',
      '<|im_start|>user\nCancel order #W1.<|im_end|>',
      '<|im_start|>assistant\n<think>look it up</think>Checking.\n<tool_call>\n{"name": "get_order_details", "arguments": {"order_id": "#W1"}}\n</tool_call>\n<tool_call>\n{"name": "get_user_details", "arguments": "{\\"user_id\\": \\"u\\"}"}\n</tool_call>\n<tool_call>\nnot json\n</tool_call><|im_end|>',
      '<|im_start|>user\n<tool_response>\n{"status": "pending"}\n</tool_response>\n<tool_response>\nError: User not found\n</tool_response><|im_end|>',
      '<|im_start|>assistant\nDone.<|im_end|>',
      '<|im_start|>user\nThanks ###STOP###<|endoftext|>',
    ].join('\n');
    expect(parseChatMl(text)).toEqual([
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: 'Cancel order #W1.' },
      {
        role: 'assistant',
        // the block that is not a call's JSON is dropped, as an environment would not have run it
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'get_order_details', arguments: '{"order_id":"#W1"}' },
          },
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_user_details', arguments: '{"user_id": "u"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', name: 'get_order_details', content: '{"status": "pending"}' },
      { role: 'tool', tool_call_id: 'call_1', name: 'get_user_details', content: 'Error: User not found' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks ###STOP###' },
    ]);
  });

  it('says undefined for text without ChatML turns', () => {
    expect(parseChatMl('just text')).toBeUndefined();
  });
});
