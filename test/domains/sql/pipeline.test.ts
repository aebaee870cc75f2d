import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toPyValue } from '../../../src/core/py-value.js';
import { loadSqlDomain } from '../../../src/domains/sql/load-spec.js';
import type { SqlFuzz } from '../../../src/domains/sql/sql-synthesis.js';
import type { ChatMessage } from '../../../src/sim/messages.js';
import type { ExecutedToolCall } from '../../../src/sim/run-episode.js';
import type { CoveTask } from '../../../src/tasks/cove-task.js';
import { verifyTrajectory } from '../../../src/verify/verification.js';
import { runCove } from '../../helpers/cli.js';
import { SHARED } from '../../helpers/paths.js';
import { bruteForceMatches } from '../../helpers/sql-brute-force.js';

const DATABASES = [
  'chinook/Chinook_Sqlite.sqlite',
  'northwind/northwind.db',
  'spider/apartment_rentals/apartment_rentals.sqlite',
  'spider/customers_and_invoices/customers_and_invoices.sqlite',
  'spider/department_store/department_store.sqlite',
  'spider/flight_1/flight_1.sqlite',
];

const dir = mkdtempSync(join(tmpdir(), 'cove-sql-pipeline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A policy-abiding trajectory that reaches each constraint's goal the shortest way: the gold write for a write
 * constraint; for an information constraint the lookup its args name, then the value told; for a refusal the
 * lookup of the entity, then a refusal in words. Each tool call gets its tool message.
 */
function goldTrajectory(
  task: CoveTask,
  kinds: Map<string, { grounding?: { lookup: readonly { tool: string; argument: string }[] } }>,
  call: (
    name: string,
    args: Record<string, unknown>,
  ) => { content: string; error: boolean; changed: ExecutedToolCall['changed'] },
): { messages: ChatMessage[]; toolCalls: ExecutedToolCall[] } {
  const messages: ChatMessage[] = [{ role: 'user', content: 'Hello.' }];
  const toolCalls: ExecutedToolCall[] = [];
  const run = (name: string, args: Record<string, unknown>) => {
    const r = call(name, args);
    const id = `g${toolCalls.length}`;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    });
    toolCalls.push({
      id,
      name,
      arguments: JSON.stringify(args),
      argumentsValid: true,
      error: r.error,
      changed: r.changed,
      messageIndex: messages.length,
    });
    messages.push({ role: 'tool', tool_call_id: id, name, content: r.content });
  };
  const goldByConstraint = new Map<string, { name: string; arguments: Record<string, unknown> }[]>();
  let next = 0;
  for (const c of task.cove.constraints) {
    const kind = kinds.get(c.kind);
    if (c.kind.startsWith('info_') || c.kind.startsWith('refuse_')) continue;
    void kind;
    goldByConstraint.set(c.id, [
      task.evaluation_criteria.actions[next++] as { name: string; arguments: Record<string, unknown> },
    ]);
  }
  for (const c of task.cove.constraints) {
    if (c.kind.startsWith('info_')) {
      run(c.kind.slice('info_'.length), c.args.call as Record<string, unknown>);
      messages.push({ role: 'assistant', content: `It is ${String(c.args.value)}.` });
    } else if (c.kind.startsWith('refuse_')) {
      const lookup = kinds.get(c.kind)?.grounding?.lookup[0];
      if (lookup === undefined) throw new Error(`${c.kind} has no lookup`);
      run(lookup.tool, { [lookup.argument]: c.args.entity_key });
      messages.push({ role: 'assistant', content: 'I am sorry, the policy does not allow that change.' });
    } else {
      for (const a of goldByConstraint.get(c.id) ?? []) run(a.name, a.arguments);
    }
  }
  messages.push({ role: 'user', content: 'Thanks. ###STOP###' });
  return { messages, toolCalls };
}

describe('SQL domains end to end: synth tools → spec → tasks → replay → generate (scripted roles), gold verified', () => {
  for (const rel of DATABASES) {
    const name = rel
      .split('/')
      .at(-1)
      ?.replace(/\.[^.]+$/, '') as string;
    it(`${name}: every task verifies with S = 1 and a state match; no uniqueness violation, no leak`, () => {
      const db = join(SHARED, 'sql', rel);
      const spec = join(dir, `${name}.json`);
      const tasksFile = join(dir, `${name}.tasks.json`);
      const synth = runCove(['synth', 'tools', '--db', db, '--out', spec]);
      expect(synth.status, synth.stderr).toBe(0);
      const made = runCove(['tasks', '--domain-spec', spec, '--n', '12', '--seed', '7', '--out', tasksFile]);
      expect(made.status, made.stderr).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, `${name}.tasks.report.json`), 'utf8'));
      expect(report.tasks).toBe(12);
      expect(report.uniqueness_violations).toBe(0);
      const replay = runCove(['replay', '--domain-spec', spec, '--tasks', tasksFile]);
      expect(replay.status, replay.stderr).toBe(0);
      const lines = replay.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { errors: boolean[] });
      expect(lines).toHaveLength(12);
      expect(lines.flatMap((l) => l.errors).filter((e) => e)).toEqual([]);

      // cove generate: the scripted user and the oracle agent, which resolves every description through the read tools
      const run = join(dir, `${name}.run`);
      const gen = runCove(['generate', '--domain-spec', spec, '--tasks', tasksFile, '--out', run, '--quiet']);
      expect(gen.status, gen.stderr).toBe(0);
      const episodes = readFileSync(join(run, 'trajectories.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              task_id: string;
              verification: { score: number; stateMatch: boolean };
              messages: ChatMessage[];
            },
        );
      expect(episodes).toHaveLength(12);
      for (const e of episodes)
        expect({ id: e.task_id, score: e.verification.score, stateMatch: e.verification.stateMatch }).toEqual(
          {
            id: e.task_id,
            score: 1,
            stateMatch: true,
          },
        );

      const sql = loadSqlDomain(spec);
      const synthesis = sql.domain.synthesis as NonNullable<typeof sql.domain.synthesis>;
      const kinds = new Map(synthesis.kinds.map((k) => [k.name, k]));
      const base = sql.domain.files?.openBase(sql.dbFile);
      if (base === undefined) throw new Error('no base');
      const tasks = JSON.parse(readFileSync(tasksFile, 'utf8')) as CoveTask[];
      const kindsSeen = new Set<string>();
      let references = 0;
      for (const task of tasks) {
        const fuzz = task.cove.fuzz as unknown as SqlFuzz;
        const text = JSON.stringify(task.user_scenario.instructions);
        for (const id of fuzz.hidden_ids) expect(text.includes(id), `${task.id} leaks ${id}`).toBe(false);
        // the oracle found each described row by calling a read tool with one of the description's values
        const called = (episodes.find((e) => e.task_id === task.id)?.messages ?? []).flatMap((m) =>
          m.role === 'assistant'
            ? (m.tool_calls ?? []).flatMap((c) => Object.values(JSON.parse(c.function.arguments)).map(String))
            : [],
        );
        for (const goal of fuzz.goals) {
          for (const ref of goal.references) {
            if (ref.clauses.length === 0) continue;
            references++;
            expect(
              ref.clauses.some((c) => called.includes(String(c.value))),
              `${task.id}: no read call with a value of ${JSON.stringify(ref.clauses)}`,
            ).toBe(true);
            const matches = bruteForceMatches(sql.image, ref);
            expect(matches, `${task.id} ${JSON.stringify(ref)}`).toHaveLength(1);
            expect(JSON.stringify(Object.values(matches[0] ?? {}))).toBe(
              JSON.stringify(Object.values(ref.key)),
            );
          }
        }
        const episode = base.fork();
        try {
          const { messages, toolCalls } = goldTrajectory(task, kinds, (n, a) =>
            episode.call(n, toPyValue(a)),
          );
          const v = verifyTrajectory({
            synthesis,
            tools: sql.domain.tools,
            task,
            final: episode,
            messages,
            toolCalls,
            termination: 'user_stop',
          });
          expect(
            { id: task.id, score: v.score, stateMatch: v.stateMatch },
            JSON.stringify(v.constraints),
          ).toEqual({
            id: task.id,
            score: 1,
            stateMatch: true,
          });
        } finally {
          episode.close();
        }
        for (const c of task.cove.constraints) kindsSeen.add(c.kind);
      }
      expect(references).toBeGreaterThan(0);
      expect([...kindsSeen].some((k) => !k.startsWith('info_'))).toBe(true);
      base.close();
    }, 300_000);
  }
});

describe('SQL domains on data the six never showed', () => {
  it('a database made here (the tiny library) and a DDL + rows spec go through synth tools → tasks → replay', async () => {
    const { createLibraryDb } = await import('../../../src/testing/tiny-domain/index.js');
    const db = join(dir, 'library.sqlite');
    createLibraryDb(db, { seed: 9, members: 25 });
    const spec = join(dir, 'library.json');
    expect(runCove(['synth', 'tools', '--db', db, '--max-tools', '8', '--out', spec]).status).toBe(0);
    const tools = JSON.parse(readFileSync(spec, 'utf8')).tools as { name: string }[];
    expect(tools.length).toBeLessThanOrEqual(8);
    const tasks = join(dir, 'library.tasks.json');
    const made = runCove(['tasks', '--domain-spec', spec, '--n', '6', '--out', tasks]);
    expect(made.status, made.stderr).toBe(0);
    const replay = runCove(['replay', '--domain-spec', spec, '--tasks', tasks]);
    expect(
      replay.stdout
        .trim()
        .split('\n')
        .flatMap((l) => JSON.parse(l).errors)
        .includes(true),
    ).toBe(false);

    // the same domain from DDL + rows: the spec records itself as the database of its tasks
    writeFileSync(
      join(dir, 'lib.sql'),
      'CREATE TABLE shelf (shelf_id INTEGER PRIMARY KEY, label TEXT NOT NULL, room TEXT NOT NULL);',
    );
    writeFileSync(
      join(dir, 'lib.rows.json'),
      JSON.stringify({
        shelf: ['Atlas', 'Birch', 'Cedar', 'Dune', 'Ember'].map((label, i) => ({
          shelf_id: i + 10,
          label,
          room: i % 2 ? 'north' : 'south',
        })),
      }),
    );
    const ddlSpec = join(dir, 'ddl.json');
    writeFileSync(
      ddlSpec,
      JSON.stringify({
        name: 'shelves',
        database: { ddl: 'lib.sql', rows: 'lib.rows.json' },
        policy: 'Help.',
        tools: [
          {
            name: 'get_shelf',
            description: 'A shelf.',
            kind: 'read',
            sql: 'SELECT * FROM shelf WHERE shelf_id = :shelf_id',
            returns: 'row',
          },
          {
            // how a user's description of a shelf is resolved: without a search, only ids could name shelves
            name: 'find_shelves',
            description: 'Shelves whose label contains the text.',
            kind: 'read',
            sql: "SELECT * FROM shelf WHERE label LIKE '%' || :label || '%'",
            returns: 'rows',
          },
          {
            name: 'move_shelf',
            description: 'Move a shelf.',
            kind: 'write',
            sql: [
              'UPDATE shelf SET room = :room WHERE shelf_id = :shelf_id',
              'SELECT * FROM shelf WHERE shelf_id = :shelf_id',
            ],
            returns: 'row',
          },
        ],
      }),
    );
    const ddlTasks = join(dir, 'ddl.tasks.json');
    const ddlMade = runCove(['tasks', '--domain-spec', ddlSpec, '--n', '4', '--k', '1', '--out', ddlTasks]);
    expect(ddlMade.status, ddlMade.stderr).toBe(0);
    const ddlReplay = runCove(['replay', '--domain-spec', ddlSpec, '--tasks', ddlTasks]);
    expect(ddlReplay.status, ddlReplay.stderr).toBe(0);
    expect(ddlReplay.stdout.trim().split('\n')).toHaveLength(4);
  }, 300_000);

  it('names an unknown table of --tables', () => {
    const r = runCove([
      'synth',
      'tools',
      '--db',
      join(SHARED, 'sql', 'spider', 'flight_1', 'flight_1.sqlite'),
      '--tables',
      'flight,nope',
      '--out',
      join(dir, 'x.json'),
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("--tables: no table 'nope'");
  });
});
