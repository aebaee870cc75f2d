import { calculate } from '../../env/calculate.js';
import type { ToolSpec } from '../../env/tool.js';

/** The two `generic` tools that τ²'s retail and airline toolkits share. */

export const calculateTool: ToolSpec = {
  name: 'calculate',
  kind: 'generic',
  params: [
    {
      name: 'expression',
      schema: { type: 'string' },
      description:
        "An arithmetic expression of numbers, + - * / and parentheses, for example '(12.5 + 7) * 2'.",
    },
  ],
  description: 'Evaluate an arithmetic expression and return the result rounded to two decimals.',
  run(_context, { expression }) {
    return calculate(expression ?? null);
  },
};

export const transferToHumanAgentsTool: ToolSpec = {
  name: 'transfer_to_human_agents',
  kind: 'generic',
  params: [
    {
      name: 'summary',
      schema: { type: 'string' },
      description: "A short summary of the customer's issue for the human agent.",
    },
  ],
  description:
    'Hand the conversation to a human agent. Use it only when the customer explicitly asks for a human, or when ' +
    'the request cannot be handled with the policy and the available tools.',
  run() {
    return 'Transfer successful';
  },
};
