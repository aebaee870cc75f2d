import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCove } from '../helpers/cli.js';
import { type MockLlmProcess, startMockLlm } from '../helpers/llm-mock-process.js';
import { NORTHWIND, northwindScript } from '../helpers/synth-scripts.js';

// `cove synth pipeline` with the list of stages as data: a stage dropped, one replaced by an external command,
// a pipeline that starts from saved outputs; single stages run alone; a bad record named. Over real sockets.

// An external `schemas` stage: reads tool records on stdin, writes typed tool records (one per name) to --out.
const OWN_SCHEMAS = `
import { readFileSync, writeFileSync } from 'node:fs';
const out = process.argv[process.argv.indexOf('--out') + 1];
const schemas = {
  search_products: { type: 'array', items: { type: 'object', properties: {
    product_id: { type: 'integer' }, product_name: { type: 'string' }, unit_price: { type: ['number', 'null'] },
    units_in_stock: { type: ['integer', 'null'] } }, required: ['product_id', 'product_name', 'unit_price', 'units_in_stock'] } },
  update_product_stock: { type: 'object', properties: { product_id: { type: 'integer' },
    product_name: { type: 'string' }, units_in_stock: { type: ['integer', 'null'] } },
    required: ['product_id', 'product_name', 'units_in_stock'] },
};
const lines = readFileSync(0, 'utf8').split('\\n').filter((l) => l.trim() !== '');
const seen = new Set();
const typed = lines.map((l) => JSON.parse(l)).filter((t) => !seen.has(t.name) && seen.add(t.name)).map((t) => ({ ...t, id: 'own-' + t.name, output: schemas[t.name],
  returns: schemas[t.name].type === 'array' ? 'rows' : 'row' }));
if (process.env.COVE_STAGE !== 'schemas') process.exit(3);
writeFileSync(out, typed.map((t) => JSON.stringify(t)).join('\\n') + '\\n');
`;

let dir: string;
let server: MockLlmProcess;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cove-pipeline-'));
  writeFileSync(join(dir, 'own-schemas.mjs'), OWN_SCHEMAS);
  writeFileSync(join(dir, 'script.json'), JSON.stringify(northwindScript));
  server = await startMockLlm(['--mode', 'script', '--script', join(dir, 'script.json')]);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const spec = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { tools: { name: string }[] }).tools.map((t) => t.name);

describe('cove synth pipeline', () => {
  it('drops a stage, replaces one by an own command, then starts another pipeline from saved outputs', async () => {
    const model = { model: 'openai:mock', base_url: server.baseUrl };
    writeFileSync(
      join(dir, 'first.json'),
      JSON.stringify({
        dir: 'first',
        model,
        stages: [
          { stage: 'questions', settings: { db: NORTHWIND, name: 'northwind', count: 2 } },
          { stage: 'tools' },
          { stage: 'expand', skip: true },
          { stage: 'schemas', command: [process.execPath, 'own-schemas.mjs'] },
          { stage: 'sql' },
        ],
        spec: { out: 'first/spec.json' },
      }),
    );
    const r = runCove(['synth', 'pipeline', '--pipeline', join(dir, 'first.json'), '--quiet']);
    expect(r.stderr).toContain('pipeline done: 4 step(s); spec with 2 tool(s)');
    expect(r.status).toBe(0);
    expect(spec(join(dir, 'first', 'spec.json'))).toEqual(['search_products', 'update_product_stock']);
    const own = JSON.parse(readFileSync(join(dir, 'first', 'schemas.summary.json'), 'utf8'));
    // both questions were answered with the same two tools: 4 records in, one per name out
    expect(own).toMatchObject({ stage: 'schemas', role: 'external', records: 2, input_records: 4 });
    // northwind's script: questions 2 (a retry), tools 2, sql 3 (a repair); no expand, no schemas request
    expect((await server.stats()).byRole).toEqual({ questions: 2, tools: 2, sql: 3 });

    // run again: every step is done, nothing is asked; --config, the old name of --pipeline, still works and says so
    const again = runCove(['synth', 'pipeline', '--config', join(dir, 'first.json'), '--quiet']);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('note: --config of cove synth pipeline is now --pipeline');
    expect((await server.stats()).byRole).toEqual({ questions: 2, tools: 2, sql: 3 });

    writeFileSync(
      join(dir, 'second.json'),
      JSON.stringify({
        dir: 'second',
        model,
        stages: [
          { stage: 'tools', use: 'first/tools.jsonl' },
          { stage: 'expand' },
          { stage: 'schemas' },
          { stage: 'sql' },
        ],
        spec: { out: 'second/spec.json' },
      }),
    );
    const s = runCove(['synth', 'pipeline', '--pipeline', join(dir, 'second.json'), '--quiet']);
    expect(s.status).toBe(0);
    expect(spec(join(dir, 'second', 'spec.json'))).toEqual([
      'search_products',
      'update_product_stock',
      'get_supplier',
    ]);
    expect((await server.stats()).byRole).toEqual({
      questions: 2,
      tools: 2,
      expand: 1,
      schemas: 3,
      sql: 3 + 4,
    });
    const totals = JSON.parse(readFileSync(join(dir, 'second', 'pipeline.summary.json'), 'utf8'));
    expect(totals.steps.map((x: { stage: string }) => x.stage)).toEqual([
      'tools',
      'expand',
      'schemas',
      'sql',
    ]);
    expect(totals.usage.calls).toBe(1 + 3 + 4);
  });

  it('runs one stage alone with its flags, and names the stage, file, line and field of a bad record', () => {
    const out = join(dir, 'alone', 'sql.jsonl');
    const r = runCove([
      'synth',
      'sql',
      '--in',
      join(dir, 'second', 'schemas.jsonl'),
      '--out',
      out,
      '--model',
      'openai:mock',
      '--base-url',
      server.baseUrl,
      '--repairs',
      '0',
      '--quiet',
    ]);
    expect(r.status).toBe(0);
    // without a repair, update_product_stock's first (failing) template drops it
    expect(r.stderr).toContain('sql: 2 record(s) in');
    const summary = JSON.parse(readFileSync(join(dir, 'alone', 'sql.summary.json'), 'utf8'));
    expect(summary.counts).toEqual({ dropped: 1, validated: 2 });
    expect(summary.settings.repairs).toBe(0);
    expect(summary.notes[0]).toMatch(
      /^sql northwind: update_product_stock dropped after 0 repair\(s\): .*no such column: Stock/,
    );

    // a stage that makes its own input from its flags: questions from a database
    const q = join(dir, 'alone', 'questions.jsonl');
    const made = runCove([
      'synth',
      'questions',
      '--db',
      NORTHWIND,
      '--name',
      'northwind',
      '--count',
      '1',
      '--out',
      q,
      '--model',
      'openai:mock',
      '--base-url',
      server.baseUrl,
      '--quiet',
    ]);
    expect(made.stderr).toContain(`questions: 1 record(s) in ${q} from 1 input record(s)`);
    expect(made.status).toBe(0);
    expect(JSON.parse(readFileSync(q, 'utf8'))).toMatchObject({
      domain: { name: 'northwind', db: NORTHWIND },
      n: 0,
      question: 'Which products from "Exotic Liquids" are still in stock?',
    });

    // a pipeline's file settings are read from its folder, whatever the working folder (here the repository)
    copyFileSync(NORTHWIND, join(dir, 'nw-copy.db'));
    writeFileSync(
      join(dir, 'relative.json'),
      JSON.stringify({
        dir: 'relative',
        model: { model: 'openai:mock', base_url: server.baseUrl },
        stages: [{ stage: 'questions', settings: { db: 'nw-copy.db', name: 'northwind', count: 1 } }],
      }),
    );
    const rel = runCove(['synth', 'pipeline', '--pipeline', join(dir, 'relative.json'), '--quiet']);
    expect(rel.stderr).toContain('pipeline done: 1 step(s)');
    expect(JSON.parse(readFileSync(join(dir, 'relative', 'questions.jsonl'), 'utf8')).domain).toEqual({
      name: 'northwind',
      db: join(dir, 'nw-copy.db'),
    });

    // a record naming a database that is not there is a bad record: file, line, field and stage, before any call
    const lost = join(dir, 'lost.jsonl');
    const question = JSON.parse(readFileSync(q, 'utf8').split('\n')[0] as string);
    writeFileSync(
      lost,
      `${JSON.stringify({ ...question, domain: { name: 'northwind', db: join(dir, 'gone.db') } })}\n`,
    );
    const l = runCove(['synth', 'tools', '--in', lost, '--out', join(dir, 'lost-out.jsonl'), '--quiet']);
    expect(l.status).toBe(2);
    expect(l.stderr).toContain(`${lost}: line 1 $.domain.db: no such file`);
    expect(l.stderr).toContain('(stage tools)');

    // an own command that writes a bad record: named with its line and field, and the command to fix
    writeFileSync(
      join(dir, 'bad-schemas.mjs'),
      `import { readFileSync, writeFileSync } from 'node:fs';
const out = process.argv[process.argv.indexOf('--out') + 1];
const t = JSON.parse(readFileSync(0, 'utf8').split('\\n')[0]);
writeFileSync(out, JSON.stringify({ ...t, output: { type: 'integer' }, returns: 'many' }) + '\\n');
`,
    );
    writeFileSync(
      join(dir, 'bad-command.json'),
      JSON.stringify({
        dir: 'bad-command',
        stages: [
          { stage: 'schemas', in: ['first/tools.jsonl'], command: [process.execPath, 'bad-schemas.mjs'] },
        ],
      }),
    );
    const bc = runCove(['synth', 'pipeline', '--pipeline', join(dir, 'bad-command.json'), '--quiet']);
    expect(bc.status).toBe(2);
    expect(bc.stderr).toContain(`${join(dir, 'bad-command', 'schemas.jsonl.tmp')}: line 1 $.returns: `);
    expect(bc.stderr).toContain(`; written by ${process.execPath} bad-schemas.mjs: fix the command`);
    expect(bc.stderr).not.toContain('make the file again');

    const none = runCove(['synth', 'pipeline', '--quiet']);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('cove synth pipeline needs --pipeline <pipeline.json>');

    const bad = join(dir, 'bad.jsonl');
    const good = readFileSync(join(dir, 'first', 'tools.jsonl'), 'utf8').split('\n')[0] as string;
    const broken = JSON.parse(good);
    delete broken.parameters;
    writeFileSync(bad, `${good}\n${JSON.stringify(broken)}\n`);
    const e = runCove(['synth', 'schemas', '--in', bad, '--out', join(dir, 'bad-out.jsonl')]);
    expect(e.status).toBe(2);
    expect(e.stderr).toContain(`${bad}: line 2 $.parameters: missing (expected object) (stage schemas)`);
  });
});
