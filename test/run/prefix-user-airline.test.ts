import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { taskSource } from '../../src/cli/generate-setup.js';
import { toPyValue } from '../../src/core/py-value.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import { readPrefixFile } from '../../src/sim/prefix/prefix-file.js';
import type { ExecutedToolCall } from '../../src/sim/run-episode.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import type { DomainSynthesis } from '../../src/tasks/synthesis.js';
import { verifyTrajectory } from '../../src/verify/verification.js';
import { AIRLINE_DB } from '../helpers/airline-base.js';

// `cove generate --from` on τ²'s airline DB (in process: the Airline domain has no scripted roles): a conversation
// that read a customer's details (`get_user_details(user_id)`, the policy's identification) pins its tasks to that
// customer, and a policy-abiding trajectory on each (the customer's details, each constraint's reservation read,
// the gold actions, the values told) scores 1 on the state after the conversation.

const root = mkdtempSync(join(tmpdir(), 'cove-from-airline-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// the user with the most reservations in τ²'s airline db.json (13), so tasks of up to six constraints can be drawn
const USER = 'lucas_wilson_8118';
const PREFIX = {
  id: 'lucas-details',
  messages: [
    { role: 'user', content: `Hi, my user id is ${USER}. What is my membership level?` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'p1',
          type: 'function',
          function: { name: 'get_user_details', arguments: JSON.stringify({ user_id: USER }) },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'p1', content: '(filled in by the replay)' },
    { role: 'assistant', content: 'Thanks. Your membership is on file; what else can I do for you?' },
  ],
};

describe('an Airline prefix that identified a customer', () => {
  it('gives tasks about that customer that a policy-abiding trajectory completes', {
    timeout: 600_000,
  }, async () => {
    const path = join(root, 'lucas.jsonl');
    writeFileSync(path, `${JSON.stringify(PREFIX)}\n`);
    const source = taskSource(
      airlineDomain,
      { db: AIRLINE_DB },
      {
        seed: 1,
        difficulty: 'mixed',
        fuzz: 2,
        semantics: 'parity',
        out: root,
        from: readPrefixFile(path),
      },
    );
    const prefixes = source.prefixes;
    if (prefixes === undefined) throw new Error('no prefixes');
    try {
      const tasks = (await source.tasks(6)) as CoveTask[];
      expect(tasks.map((t) => t.cove.user_id)).toEqual(Array(6).fill(USER));
      // not only writes: refusals need the identification and the reservation read (grounding)
      expect(tasks.some((t) => t.cove.constraints.some((c) => c.kind.startsWith('refuse_')))).toBe(true);
      const synthesis = airlineDomain.synthesis as DomainSynthesis;
      for (const task of tasks) {
        const state = prefixes.of(task);
        expect(state?.userId).toBe(USER);
        const episode = (state?.base ?? source.loaded.base).fork({ semantics: 'parity' });
        const messages: ChatMessage[] = [...(state?.prefix.messages ?? [])];
        const toolCalls: ExecutedToolCall[] = [];
        const call = (name: string, args: Record<string, unknown>) => {
          const id = `t${toolCalls.length}`;
          const r = episode.call(name, toPyValue(args));
          messages.push({
            role: 'assistant',
            content: null,
            tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
          });
          messages.push({ role: 'tool', tool_call_id: id, name, content: r.content });
          toolCalls.push({
            id,
            name,
            arguments: JSON.stringify(args),
            argumentsValid: true,
            error: r.error,
            changed: r.changed,
            messageIndex: messages.length - 1,
          });
        };
        messages.push({ role: 'user', content: 'One more thing.' });
        call('get_user_details', { user_id: USER });
        for (const c of task.cove.constraints)
          if (typeof c.args.reservation_id === 'string')
            call('get_reservation_details', { reservation_id: c.args.reservation_id });
        for (const a of task.evaluation_criteria.actions) call(a.name, a.arguments);
        messages.push({
          role: 'assistant',
          content: `All done. ${(task.evaluation_criteria.communicate_info ?? []).join('. ')}`,
        });
        const v = verifyTrajectory({
          synthesis,
          tools: airlineDomain.tools,
          task,
          final: episode,
          messages,
          toolCalls,
          termination: 'user_stop',
        });
        episode.close();
        expect({ task: task.id, score: v.score, stateMatch: v.stateMatch }).toEqual({
          task: task.id,
          score: 1,
          stateMatch: true,
        });
      }
    } finally {
      prefixes.close();
      source.loaded.base.close();
    }
  });
});
