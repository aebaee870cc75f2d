import type { LoadedTask } from '../tasks/tau2-task.js';
import type { Domain, DomainEnvironment } from './domain.js';

/** How to load one built-in domain: only its environment, or the whole domain with every capability. */
interface BuiltInDomain {
  environment(): Promise<DomainEnvironment>;
  domain(): Promise<Domain>;
}

/**
 * The built-in domains, each loaded only when asked for, in the order of `registry.ts` (which loads them all, for
 * the commands that need every domain): a command that works on one domain loads that domain's modules alone, and
 * a replay from the cache of bases loads only its environment (no zod, no synthesis or scripted roles).
 */
const BUILT_IN: Readonly<Record<string, BuiltInDomain>> = {
  retail: {
    environment: async () => {
      const m = await import('./retail/environment.js');
      return {
        ...m.RETAIL_ENVIRONMENT,
        version: m.RETAIL_VERSION,
        tau2: { initialHashes: m.TAU2_RETAIL_INITIAL_HASHES },
      };
    },
    domain: async () => (await import('./retail/index.js')).retailDomain,
  },
  airline: {
    environment: async () => {
      const m = await import('./airline/environment.js');
      return {
        ...m.AIRLINE_ENVIRONMENT,
        version: m.AIRLINE_VERSION,
        tau2: { initialHashes: m.TAU2_AIRLINE_INITIAL_HASHES },
      };
    },
    domain: async () => (await import('./airline/index.js')).airlineDomain,
  },
};

/** Names of the built-in domains that can be loaded one by one. */
export function lazyDomainNames(): string[] {
  return Object.keys(BUILT_IN);
}

/** A domain chosen for τ² tasks: its environment now, the whole domain when needed (e.g. to import a db.json). */
export interface ChosenDomain {
  readonly environment: DomainEnvironment;
  domain(): Promise<Domain>;
}

/**
 * The built-in domain for a τ² tasks file (tasks made by cove excepted), as `chooseDomain(flag, domainOfTasks(…))`
 * chooses it, loading as little as it can: with `--domain`, that domain's environment alone when each gold action
 * is one of its tools; without, every environment (they are small), to find the one domain whose tools fit. In
 * every other case (an unknown name, actions that do not fit, no domain or several fitting) it asks
 * `infer-domain.ts`, which loads every domain and gives the same answer or error as the other commands.
 */
export async function chooseTau2Domain(
  flag: string | undefined,
  tasks: readonly LoadedTask[],
  file: string,
): Promise<ChosenDomain> {
  const actions = new Set(
    tasks.flatMap((t) => (t.task.evaluation_criteria?.actions ?? []).map((a) => a.name)),
  );
  const fits = (env: DomainEnvironment): boolean => {
    const tools = new Set(env.tools.map((tool) => tool.name));
    return [...actions].every((a) => tools.has(a));
  };
  const named = tasks.some((t) => t.raw instanceof Map && t.raw.has('cove'));
  if (!named && flag !== undefined && Object.hasOwn(BUILT_IN, flag)) {
    const env = await (BUILT_IN[flag] as BuiltInDomain).environment();
    if (fits(env)) return lazily(flag, env);
  } else if (!named && flag === undefined && actions.size > 0) {
    const names = lazyDomainNames();
    const envs = await Promise.all(names.map((name) => (BUILT_IN[name] as BuiltInDomain).environment()));
    const fitting = envs.filter(fits);
    if (fitting.length === 1) {
      const env = fitting[0] as DomainEnvironment;
      return lazily(env.name, env);
    }
  }
  const infer = await import('./infer-domain.js');
  const domain = infer.chooseDomain(flag, infer.domainOfTasks(tasks, file), { input: file });
  return { environment: domain, domain: async () => domain };
}

function lazily(name: string, environment: DomainEnvironment): ChosenDomain {
  return { environment, domain: () => (BUILT_IN[name] as BuiltInDomain).domain() };
}
