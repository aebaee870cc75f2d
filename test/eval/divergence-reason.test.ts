import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pyDict } from '../../src/core/py-value.js';
import { gradeResultsFile } from '../../src/eval/grade-file.js';
import { tau2AirlineBase } from '../helpers/airline-base.js';
import { TAU2 } from '../helpers/paths.js';

/**
 * The reason `cove grade` gives for a tool output that differs from the recorded one is found by replaying, not
 * guessed: a simulation recorded by an airline environment with τ² #153 fixed (a second cancellation of a
 * reservation refused, README "cancel_reservation") is explained by the `fixed` replay; an edited tool message is
 * not, and the reason names the field that differs.
 */

const tmp = mkdtempSync(join(tmpdir(), 'cove-divergence-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SOURCE = join(TAU2, 'results', 'airline__gpt-4.1-mini__user-gpt-4.1-mini__1sim__pr170.json');

interface Message {
  role: string;
  content: string | null;
  tool_calls?: { id: string; name: string; arguments: unknown; requestor: string }[] | null;
  id?: string;
  error?: boolean;
}

/** A copy of the one-simulation airline file whose simulation makes the given tool calls with these answers. */
function fileWith(name: string, calls: { tool: string; args: unknown; content: string; error: boolean }[]) {
  const doc = JSON.parse(readFileSync(SOURCE, 'utf8')) as { simulations: { messages: Message[] }[] };
  const sim = doc.simulations[0];
  if (sim === undefined) throw new Error('fixture has no simulation');
  const messages: Message[] = [sim.messages[0] as Message, sim.messages[1] as Message];
  calls.forEach((c, k) => {
    const id = `call_${k}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, name: c.tool, arguments: c.args, requestor: 'assistant' }],
    });
    messages.push({ id, role: 'tool', content: c.content, error: c.error });
  });
  messages.push({ role: 'assistant', content: 'Done.', tool_calls: null });
  sim.messages = messages;
  const file = join(tmp, name);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** The answer τ²'s environment (as cove runs it, parity) gives to a first cancellation of 1AKIA8. */
function firstCancel(): string {
  const episode = tau2AirlineBase().base.fork();
  try {
    const r = episode.call('cancel_reservation', pyDict({ reservation_id: '1AKIA8' }));
    expect(r.error).toBe(false);
    return r.content;
  } finally {
    episode.close();
  }
}

describe('the likely reason of a replay divergence', () => {
  it('a second cancellation refused (τ² #153 fixed) is explained as that known environment difference', {
    timeout: 120_000,
  }, async () => {
    const cancel = { tool: 'cancel_reservation', args: { reservation_id: '1AKIA8' } };
    const file = fileWith('fixed.json', [
      { ...cancel, content: firstCancel(), error: false },
      // README: under `fixed` a second cancellation fails with this message
      { ...cancel, content: 'Error: Reservation 1AKIA8 is already cancelled', error: true },
    ]);
    const g = await gradeResultsFile(file, { tau2Data: TAU2 });
    expect(g.summary.tool_calls).toBe(2);
    expect(g.summary.tool_outputs_identical).toBe(1);
    expect(g.divergences).toHaveLength(1);
    const d = g.divergences[0];
    expect(d?.call_index).toBe(1);
    expect(d?.ours.error).toBe(false);
    expect(d?.reason).toMatch(/^a known τ² environment difference/);
    expect(d?.reason).toContain('cancel_reservation (airline: τ² gives no seats back');
  });

  it('an edited tool message is not: the reason says so and names the field and both values', {
    timeout: 120_000,
  }, async () => {
    const episode = tau2AirlineBase().base.fork();
    const details = episode.call('get_reservation_details', pyDict({ reservation_id: '1AKIA8' }));
    episode.close();
    // 1AKIA8 is an economy reservation (db.json); the recorded answer says business
    expect(details.content).toContain('"cabin": "economy"');
    const file = fileWith('edited.json', [
      {
        tool: 'get_reservation_details',
        args: { reservation_id: '1AKIA8' },
        content: details.content.replace('"cabin": "economy"', '"cabin": "business"'),
        error: false,
      },
    ]);
    const g = await gradeResultsFile(file, { tau2Data: TAU2 });
    const reason = g.divergences[0]?.reason ?? '';
    expect(reason).toMatch(/^not a known τ² environment difference/);
    expect(reason).toContain('an edited environment or a tampered trajectory');
    expect(reason).toContain('cabin: "economy" here, "business" recorded');
    expect(reason).toContain('no earlier call of this simulation changed the DB');
  });
});
