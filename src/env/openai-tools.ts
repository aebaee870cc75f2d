import type { EnvironmentSpec } from './environment.js';
import type { ToolSpec } from './tool.js';

/** A tool in the OpenAI chat-completions `tools` format. */
export interface OpenAiTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Record<string, unknown>;
  };
}

/** pydantic's field title: `order_id` → `Order Id`. */
function title(name: string): string {
  return name
    .split('_')
    .map((w) => (w.length === 0 ? w : w[0]?.toUpperCase() + w.slice(1)))
    .join(' ');
}

/**
 * A tool's OpenAI schema in the same shape τ² sends (pydantic JSON Schema: `properties` with `description`,
 * `title` and the type, `required`, `title: "parameters"`), with cove's own descriptions.
 */
export function toolSchema(tool: ToolSpec): OpenAiTool {
  const properties: Record<string, unknown> = {};
  for (const p of tool.params)
    properties[p.name] = { description: p.description, title: title(p.name), ...p.schema };
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      // pydantic leaves `required` out when there are no parameters
      parameters:
        tool.params.length === 0
          ? { properties, title: 'parameters', type: 'object' }
          : { properties, required: tool.params.map((p) => p.name), title: 'parameters', type: 'object' },
    },
  };
}

/** All tools of an environment in τ²'s order, with cove's descriptions (`text: cove`). */
export function coveToolSchemas(spec: EnvironmentSpec): OpenAiTool[] {
  return spec.tools.map(toolSchema);
}
