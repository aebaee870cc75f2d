import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, InputFileError } from '../core/errors.js';
import { agentContext, type TextSetting } from '../domains/agent-context.js';
import { getDomain } from '../domains/registry.js';
import type { OpenAiTool } from '../env/openai-tools.js';
import { resolveTau2DomainDir, tau2Root } from '../tau2/data-dir.js';
import type { Tau2Info } from '../tau2/results-file.js';

/** Where τ²'s own files are looked for (`--tau2-data`, `$COVE_TAU2_DATA`, ancestors of the input). */
export interface Tau2Hints {
  readonly explicit?: string | undefined;
  readonly fromEnv?: string | undefined;
  readonly near?: string | undefined;
}

/** The agent's system prompt and policy of a cove record: not stored in records, rebuilt from domain and text. */
export interface PromptParts {
  readonly systemPrompt: string;
  readonly policy: string;
}

/**
 * Rebuilds the agent system prompt cove used for a domain and text setting (the same {@link agentContext} that
 * `cove generate` used, so the prompt equals `sft.jsonl`'s `messages[0]`), remembered per (domain, text).
 * @throws {ConfigError} for an unknown domain, or `text: tau2` without a τ² data directory
 */
export function promptResolver(hints: Tau2Hints): (domain: string, text: TextSetting) => PromptParts {
  const cache = new Map<string, PromptParts>();
  return (domainName, text) => {
    const key = `${domainName}\u0000${text}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const domain = getDomain(domainName);
    let parts: PromptParts;
    if (text === 'cove') {
      parts = { systemPrompt: agentContext(domain, 'cove').systemPrompt, policy: domain.policy.cove };
    } else {
      const dir = resolveTau2DomainDir(domainName, {
        explicit: hints.explicit,
        fromEnv: hints.fromEnv,
        tasksFile: hints.near,
      });
      parts = {
        systemPrompt: agentContext(domain, 'tau2', dir).systemPrompt,
        policy: readFileSync(join(dir, 'policy.md'), 'utf8'),
      };
    }
    cache.set(key, parts);
    return parts;
  };
}

/** Where τ²'s agent prompt template marks the policy (as `domains/agent-context.ts` expects). */
const POLICY_MARK = '{contents of policy.md, verbatim}';

/**
 * The agent system prompt and tools of a τ² results file: τ²'s agent prompt template (`agent_system_prompt.txt`
 * in the τ² data directory) around the policy the run recorded (`info.environment_info.policy`), and the tools from
 * `info.environment_info.tool_defs` when the file has them, else τ²'s `tool_schemas.json` for the domain.
 * @throws {ConfigError} when the τ² data directory or its files cannot be found
 */
export function tau2ResultsContext(
  info: Tau2Info,
  file: string,
  hints: Tau2Hints,
): { systemPrompt: string; tools: OpenAiTool[] } {
  const domain = info.environment_info.domain_name;
  const root = tau2Root(
    resolveTau2DomainDir(domain, { explicit: hints.explicit, fromEnv: hints.fromEnv, tasksFile: file }),
  );
  const templateFile = join(root, 'agent_system_prompt.txt');
  let template: string;
  try {
    template = readFileSync(templateFile, 'utf8');
  } catch {
    throw new ConfigError(
      `exporting τ² results needs τ²'s agent prompt template ${templateFile} (see the README)`,
    );
  }
  if (!template.includes(POLICY_MARK))
    throw new ConfigError(`${templateFile} lacks the marker ${POLICY_MARK}`);
  const systemPrompt = template.replace(POLICY_MARK, info.environment_info.policy);
  const defs = info.environment_info.tool_defs;
  if (defs !== null && defs !== undefined) {
    const tools = Object.entries(defs).map(
      ([name, d]): OpenAiTool => ({
        type: 'function',
        function: {
          name: typeof d.name === 'string' ? d.name : name,
          description: typeof d.doc === 'string' ? d.doc : '',
          parameters: (d.params as Record<string, unknown>) ?? { type: 'object', properties: {} },
        },
      }),
    );
    return { systemPrompt, tools };
  }
  const schemasFile = join(root, 'tool_schemas.json');
  let parsed: Record<string, { agent_tools?: OpenAiTool[] }>;
  try {
    parsed = JSON.parse(readFileSync(schemasFile, 'utf8'));
  } catch (e) {
    throw new ConfigError(
      `${file} has no tool_defs, and τ²'s ${schemasFile} cannot be read (${(e as Error).message})`,
    );
  }
  const tools = parsed[domain]?.agent_tools;
  if (!Array.isArray(tools)) throw new InputFileError(schemasFile, `$.${domain}.agent_tools`, 'missing');
  return { systemPrompt, tools: tools.map((t) => ({ type: 'function', function: t.function })) };
}
