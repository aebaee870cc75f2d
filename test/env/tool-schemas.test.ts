import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentContext } from '../../src/domains/agent-context.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { coveToolSchemas } from '../../src/env/openai-tools.js';
import { tau2ToolSchemas } from '../../src/tau2/tool-schemas.js';
import { TAU2 } from '../helpers/paths.js';

interface Schema {
  type: string;
  function: {
    name: string;
    description: string;
    parameters: {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      title: string;
      type: string;
    };
  };
}

const tau2 = JSON.parse(readFileSync(join(TAU2, 'tool_schemas.json'), 'utf8')).retail as {
  agent_tools: Schema[];
  agent_tool_order: string[];
};

describe('retail tool schemas', () => {
  const cove = coveToolSchemas(retailDomain) as unknown as Schema[];

  it('has τ²’s 16 tools, in τ²’s order', () => {
    expect(cove.map((t) => t.function.name)).toEqual(tau2.agent_tool_order);
    expect(cove).toHaveLength(16);
  });

  it.each(tau2.agent_tools.map((t) => [t.function.name, t] as const))(
    '%s: same parameters, types, titles and required list as τ²',
    (name, expected) => {
      const mine = cove.find((t) => t.function.name === name) as Schema;
      expect(mine.type).toBe('function');
      expect(Object.keys(mine.function.parameters.properties)).toEqual(
        Object.keys(expected.function.parameters.properties),
      );
      expect(mine.function.parameters.required).toEqual(expected.function.parameters.required);
      expect(mine.function.parameters.title).toBe('parameters');
      expect(mine.function.parameters.type).toBe('object');
      for (const [param, spec] of Object.entries(expected.function.parameters.properties)) {
        const { description: _d, ...shape } = spec;
        const { description, ...myShape } = mine.function.parameters.properties[param] as Record<
          string,
          unknown
        >;
        expect(myShape).toEqual(shape);
        expect(typeof description).toBe('string');
        expect(description).not.toBe(spec.description);
      }
      // descriptions in cove's own words
      expect(mine.function.description).not.toBe(expected.function.description);
    },
  );

  it('loads τ²’s exact schemas for text tau2, without τ²’s bookkeeping keys', () => {
    const loaded = tau2ToolSchemas(TAU2, retailDomain);
    expect(loaded).toEqual(tau2.agent_tools.map((t) => ({ type: 'function', function: t.function })));
  });

  it('builds τ²’s system prompt from its template and the policy, verbatim', () => {
    const context = agentContext(retailDomain, 'tau2', join(TAU2, 'retail'));
    const template = readFileSync(join(TAU2, 'agent_system_prompt.txt'), 'utf8');
    const policy = readFileSync(join(TAU2, 'retail', 'policy.md'), 'utf8');
    expect(context.systemPrompt).toBe(template.replace('{contents of policy.md, verbatim}', policy));
    const cove = agentContext(retailDomain, 'cove');
    expect(cove.systemPrompt.startsWith('<instructions>\n')).toBe(true);
    expect(cove.systemPrompt).toContain('<policy>\n# Store support policy');
    expect(cove.systemPrompt).not.toContain(policy.slice(0, 200));
  });
});
