import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { coveToolSchemas } from '../env/openai-tools.js';
import type { AgentContext, TextSetting } from '../sim/agent-context.js';
import { tau2Root } from '../tau2/data-dir.js';
import { tau2ToolSchemas } from '../tau2/tool-schemas.js';
import type { Domain } from './domain.js';

/** Where τ²'s agent template marks the policy (τ²'s `agent/llm_agent.py` system prompt template). */
const POLICY_MARK = '{contents of policy.md, verbatim}';

/**
 * The agent's system prompt and tools for a text setting. `cove`: cove's instruction block and policy in an
 * `<instructions>`/`<policy>` frame; `tau2`: τ²'s `agent_system_prompt.txt` with the domain's `policy.md`
 * inserted verbatim, and τ²'s exact tool schemas (τ²'s `agent/llm_agent.py`).
 * @throws {ConfigError} when `tau2` files are missing.
 */
export function agentContext(domain: Domain, text: TextSetting, tau2DomainDir?: string): AgentContext {
  if (text === 'cove') {
    return {
      systemPrompt: `<instructions>\n${domain.policy.instructions}\n</instructions>\n<policy>\n${domain.policy.cove}\n</policy>`,
      tools: coveToolSchemas(domain),
    };
  }
  if (tau2DomainDir === undefined)
    throw new ConfigError('--text tau2 needs a τ² data directory (--tau2-data DIR)');
  const root = tau2Root(tau2DomainDir);
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      throw new ConfigError(
        `--text tau2 needs ${file} (see the README: "The τ² data directory" explains how to create it in a tau2-bench checkout)`,
      );
    }
  };
  const template = read(join(root, 'agent_system_prompt.txt'));
  if (!template.includes(POLICY_MARK))
    throw new ConfigError(`${join(root, 'agent_system_prompt.txt')} lacks the marker ${POLICY_MARK}`);
  const policy = read(join(tau2DomainDir, 'policy.md'));
  return { systemPrompt: template.replace(POLICY_MARK, policy), tools: tau2ToolSchemas(root, domain) };
}

export type { AgentContext, TextSetting };
