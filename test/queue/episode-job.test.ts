import { describe, expect, it } from 'vitest';
import type { OpenAiTool } from '../../src/env/openai-tools.js';
import { restoredRecord, returnedRecord } from '../../src/queue/episode-job.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';

// A record travels back through the queue without its tools (docs/distributed.md, "Jobs"); the coordinator puts
// them back in their place, so the line it writes has the bytes one process would write.
describe('returned records', () => {
  const tools = [
    { type: 'function', function: { name: 'get_order', description: 'd', parameters: { type: 'object' } } },
  ] as unknown as OpenAiTool[];
  const record = { id: 't1', run: 'r', messages: [], tools, termination_reason: 'agent_stop' };

  it('leaves tools out as null in their place, and puts them back where they were', () => {
    const returned = returnedRecord(record as unknown as TrajectoryRecord);
    // what travels through Redis, written out by hand
    expect(JSON.stringify(returned)).toBe(
      '{"id":"t1","run":"r","messages":[],"tools":null,"termination_reason":"agent_stop"}',
    );
    const back = restoredRecord(JSON.parse(JSON.stringify(returned)), tools);
    expect(JSON.stringify(back)).toBe(
      '{"id":"t1","run":"r","messages":[],"tools":[{"type":"function","function":{"name":"get_order",' +
        '"description":"d","parameters":{"type":"object"}}}],"termination_reason":"agent_stop"}',
    );
  });

  it('keeps a record that still carries its tools as it is', () => {
    const whole = record as unknown as TrajectoryRecord;
    expect(restoredRecord(whole, [])).toBe(whole);
  });
});
