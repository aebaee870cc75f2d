import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaMismatch } from '../../src/core/json-schema-check.js';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { airlineDomain } from '../../src/domains/airline/index.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { parseToolReply, toolContent } from '../../src/sim/model-tools/tool-model.js';
import { GOLDEN, TAU2 } from '../helpers/paths.js';

// The output schemas a model playing the tools must follow (`--tool-outputs model`) are derived from the data
// model; here they are checked against what τ²'s own tools returned: the outputs of every gold action in τ²'s
// golden files and every tool message of τ²'s recorded GPT-4.1 runs.

const domains = { retail: retailDomain, airline: airlineDomain } as const;

interface Output {
  readonly tool: string;
  readonly content: string;
}

function goldenOutputs(domain: 'retail' | 'airline'): Output[] {
  const file = JSON.parse(readFileSync(join(GOLDEN, `${domain}.head.train.json`), 'utf8')) as Record<
    string,
    { actions?: string[]; outputs?: string[]; errors?: boolean[] }
  >;
  return Object.entries(file).flatMap(([id, e]) =>
    id.startsWith('_')
      ? []
      : (e.actions ?? []).flatMap((tool, i) =>
          e.errors?.[i] === false ? [{ tool, content: e.outputs?.[i] as string }] : [],
        ),
  );
}

function resultOutputs(domain: 'retail' | 'airline'): Output[] {
  const dir = join(TAU2, 'results');
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${domain}__`))
    .flatMap((f) => {
      const results = JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
        simulations: {
          messages: {
            role: string;
            id?: string;
            content?: string;
            error?: boolean;
            tool_calls?: { id: string; name: string; requestor?: string }[] | null;
          }[];
        }[];
      };
      return results.simulations.flatMap((s) => {
        const names = new Map(
          s.messages.flatMap((m) =>
            (m.tool_calls ?? []).filter((c) => c.requestor !== 'user').map((c) => [c.id, c.name] as const),
          ),
        );
        return s.messages.flatMap((m) => {
          const tool = m.id === undefined ? undefined : names.get(m.id);
          return m.role === 'tool' && m.error === false && tool !== undefined
            ? [{ tool, content: m.content ?? '' }]
            : [];
        });
      });
    });
}

describe.each(['retail', 'airline'] as const)('%s output schemas', (name) => {
  const domain = domains[name];
  const schemas = domain.outputSchemas ?? {};

  it('cover every tool of the domain', () => {
    expect(Object.keys(schemas).sort()).toEqual(domain.tools.map((t) => t.name).sort());
  });

  it("accept every successful output of τ²'s tools (gold actions and recorded runs)", () => {
    const outputs = [...goldenOutputs(name), ...resultOutputs(name)];
    expect(outputs.length).toBeGreaterThan(200);
    const tools = new Set<string>();
    for (const { tool, content } of outputs) {
      const schema = schemas[tool];
      expect(schema, tool).toBeDefined();
      if (schema === undefined) continue;
      tools.add(tool);
      const value = schema.type === 'string' ? content : parsePyJson(content);
      expect(schemaMismatch(value, schema), `${tool}: ${content.slice(0, 120)}`).toBeUndefined();
      // a model that answers with τ²'s output gets τ²'s exact tool message back
      const reply = `{"output": ${schema.type === 'string' ? JSON.stringify(content) : content}}`;
      const parsed = parseToolReply(reply, schema);
      expect('output' in parsed && toolContent(parsed.output)).toBe(content);
    }
    expect(tools.size).toBeGreaterThan(name === 'retail' ? 10 : 9);
  });
});

describe('the tool model’s replies', () => {
  const order = retailDomain.outputSchemas?.get_order_details ?? {};
  it('are refused when they do not fit: not JSON, another key, a wrong type, an unknown field, an empty error', () => {
    expect(parseToolReply('Sure, here it is', order)).toEqual({ problem: 'it was not valid JSON' });
    expect(parseToolReply('{"result": 1}', order)).toEqual({
      problem: 'it must have exactly one key, "output" or "error" (it had "result")',
    });
    expect(parseToolReply('{"output": "the order"}', order)).toEqual({
      problem: 'the output does not match output_schema ($.output: string is not object)',
    });
    const rogue = parseToolReply('{"output": {"order_id": "#W1", "colour": "red"}}', order);
    expect(rogue).toEqual({ problem: 'the output does not match output_schema ($.output.user_id: missing)' });
    expect(parseToolReply('{"error": " "}', order)).toEqual({
      problem: '"error" must be a non-empty string',
    });
  });

  it('give τ²-style tool messages: errors as "Error: …", text as is, values as Python json.dumps', () => {
    expect(parseToolReply('{"error": "Order not found"}', order)).toEqual({ error: 'Order not found' });
    const text = retailDomain.outputSchemas?.find_user_id_by_email ?? {};
    const id = parseToolReply('```json\n{"output": "mia_garcia_4516"}\n```', text);
    expect('output' in id && toolContent(id.output)).toBe('mia_garcia_4516');
    const types = retailDomain.outputSchemas?.list_all_product_types ?? {};
    const list = parseToolReply('{"output": {"Bicycle": "9765", "Tent": "1021"}}', types);
    expect('output' in list && toolContent(list.output)).toBe('{"Bicycle": "9765", "Tent": "1021"}');
  });
});
