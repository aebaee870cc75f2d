import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, InputFileError } from '../core/errors.js';
import type { EnvironmentSpec } from '../env/environment.js';
import type { OpenAiTool } from '../env/openai-tools.js';

/**
 * τ²'s exact tool schemas (`text: tau2`), read from `tool_schemas.json` in the τ² data directory root (a file
 * cove's README explains how to generate in a τ² checkout). The names and order must equal the domain's.
 * @throws {ConfigError} when the file is missing or disagrees with the domain's tools.
 */
export function tau2ToolSchemas(tau2Root: string, spec: EnvironmentSpec): OpenAiTool[] {
  const file = join(tau2Root, 'tool_schemas.json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`text tau2 needs ${file} (τ²'s OpenAI tool schemas): ${(e as Error).message}`);
  }
  const entry = (parsed as Record<string, { agent_tools?: unknown }>)[spec.name];
  if (entry === undefined || !Array.isArray(entry.agent_tools)) {
    throw new InputFileError(file, `$.${spec.name}.agent_tools`, 'missing');
  }
  const tools = (entry.agent_tools as { type: 'function'; function: OpenAiTool['function'] }[]).map(
    (t): OpenAiTool => ({ type: 'function', function: t.function }),
  );
  const names = tools.map((t) => t.function.name).join(',');
  const expected = spec.tools.map((t) => t.name).join(',');
  if (names !== expected) {
    throw new InputFileError(
      file,
      `$.${spec.name}.agent_tools`,
      `tool names/order [${names}] differ from [${expected}]`,
    );
  }
  return tools;
}
