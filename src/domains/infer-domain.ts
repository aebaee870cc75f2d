import { ConfigError } from '../core/errors.js';
import type { PyValue } from '../core/py-value.js';
import type { LoadedTask } from '../tasks/tau2-task.js';
import type { Domain } from './domain.js';
import { domainNames, getDomain } from './registry.js';

/** Which domain a piece of input belongs to, when it can be told, and how it was told. */
export interface DomainEvidence {
  readonly domain: string;
  readonly how: string;
}

/**
 * The domain of a tasks file: the `cove.domain` of tasks made by cove, else the one built-in domain whose tools
 * include every gold action name of the file. `undefined` when it cannot be told (no actions, or several fit).
 * @throws {ConfigError} when the tasks name several domains.
 */
export function domainOfTasks(tasks: readonly LoadedTask[], file: string): DomainEvidence | undefined {
  const named = new Set<string>();
  for (const t of tasks) {
    const cove = t.raw instanceof Map ? t.raw.get('cove') : undefined;
    const domain = cove instanceof Map ? cove.get('domain') : undefined;
    if (typeof domain === 'string') named.add(domain);
  }
  if (named.size > 1)
    throw new ConfigError(`${file}: the tasks belong to ${[...named].join(' and ')}; split the file`);
  if (named.size === 1) return { domain: [...named][0] as string, how: `its tasks' cove.domain` };
  const actions = new Set(
    tasks.flatMap((t) => (t.task.evaluation_criteria?.actions ?? []).map((a) => a.name)),
  );
  if (actions.size === 0) return undefined;
  const fits = domainNames().filter((name) => {
    const tools = new Set(getDomain(name).tools.map((tool) => tool.name));
    return [...actions].every((a) => tools.has(a));
  });
  return fits.length === 1
    ? { domain: fits[0] as string, how: 'the tools its gold actions call' }
    : undefined;
}

/** The domain of a db.json value: the one built-in domain whose state collections are exactly its top-level keys. */
export function domainOfDbValue(value: PyValue): DomainEvidence | undefined {
  if (!(value instanceof Map)) return undefined;
  const keys = [...value.keys()].sort().join(',');
  const fits = domainNames().filter(
    (name) =>
      getDomain(name)
        .collections.map((c) => c.name)
        .sort()
        .join(',') === keys,
  );
  return fits.length === 1 ? { domain: fits[0] as string, how: 'its top-level collections' } : undefined;
}

/**
 * The domain a command works on: `--domain` when given (it must agree with what the input says), else what the
 * input says, else `fallback` (only `cove generate` has one: retail, its documented default).
 * @throws {ConfigError} when the flag contradicts the input, or when nothing tells the domain.
 */
export function chooseDomain(
  flag: string | undefined,
  evidence: DomainEvidence | undefined,
  context: { readonly input?: string | undefined; readonly fallback?: string },
): Domain {
  if (flag !== undefined) {
    const domain = getDomain(flag);
    if (evidence !== undefined && evidence.domain !== domain.name) {
      throw new ConfigError(
        `--domain ${flag}, but ${context.input ?? 'the input'} is ${evidence.domain} (told by ${evidence.how})`,
      );
    }
    return domain;
  }
  if (evidence !== undefined) return getDomain(evidence.domain);
  if (context.fallback !== undefined) return getDomain(context.fallback);
  throw new ConfigError(
    `say which domain with --domain (one of: ${domainNames().join(', ')})${
      context.input === undefined ? '' : `: ${context.input} does not tell`
    }`,
  );
}
