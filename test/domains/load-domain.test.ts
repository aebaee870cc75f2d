import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import { chooseDomain, domainOfTasks } from '../../src/domains/infer-domain.js';
import { chooseTau2Domain, lazyDomainNames } from '../../src/domains/load-domain.js';
import { domainNames, getDomain } from '../../src/domains/registry.js';
import { readJsonInput } from '../../src/io/read-input.js';
import { parseTau2Tasks } from '../../src/tasks/tau2-task.js';
import { RETAIL_TASKS, TAU2 } from '../helpers/paths.js';

const retailTasks = parseTau2Tasks(readJsonInput(RETAIL_TASKS), RETAIL_TASKS);
const airlineFile = join(TAU2, 'airline', 'tasks.json');
const airlineTasks = parseTau2Tasks(readJsonInput(airlineFile), airlineFile);

/** What `chooseDomain(flag, domainOfTasks(…))` (every domain loaded) answers: a domain name or an error. */
function eager(flag: string | undefined, tasks: typeof retailTasks, file: string): string {
  try {
    return chooseDomain(flag, domainOfTasks(tasks, file), { input: file }).name;
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

async function lazy(flag: string | undefined, tasks: typeof retailTasks, file: string): Promise<string> {
  try {
    return (await chooseTau2Domain(flag, tasks, file)).environment.name;
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
}

describe('built-in domains loaded one by one', () => {
  it('lists the same domains as the registry', () => {
    expect(lazyDomainNames()).toEqual(domainNames());
  });

  it('gives each domain’s environment as the whole domain has it, and the whole domain itself', async () => {
    for (const name of domainNames()) {
      const full = getDomain(name);
      const tasks = name === 'retail' ? retailTasks : airlineTasks;
      const chosen = await chooseTau2Domain(name, tasks, `${name}/tasks.json`);
      const env = chosen.environment;
      expect(env.name).toBe(name);
      expect(env.version).toBe(full.version);
      expect(env.schemaSql).toBe(full.schemaSql);
      expect(env.tools).toEqual(full.tools);
      expect(env.collections).toEqual(full.collections);
      expect(env.tau2?.initialHashes).toEqual(full.tau2?.initialHashes);
      expect(await chosen.domain()).toBe(full);
    }
  });

  it('chooses as chooseDomain does, with and without --domain, and refuses with the same messages', async () => {
    const none = parseTau2Tasks(
      parsePyJson('[{"id": "1", "user_scenario": {"instructions": "x"}}]'),
      'none.json',
    );
    const unknownTool = parseTau2Tasks(
      parsePyJson(
        '[{"id": "1", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"actions": [{"action_id": "a", "name": "fly_me", "arguments": {}}]}}]',
      ),
      'odd.json',
    );
    const cases: [string | undefined, typeof retailTasks, string][] = [
      ['retail', retailTasks, 'r.json'],
      [undefined, retailTasks, 'r.json'],
      ['airline', airlineTasks, 'a.json'],
      [undefined, airlineTasks, 'a.json'],
      ['airline', retailTasks, 'r.json'],
      ['retail', airlineTasks, 'a.json'],
      ['telecom', retailTasks, 'r.json'],
      [undefined, none, 'none.json'],
      ['airline', none, 'none.json'],
      [undefined, unknownTool, 'odd.json'],
      ['retail', unknownTool, 'odd.json'],
    ];
    for (const [flag, tasks, file] of cases) {
      expect(await lazy(flag, tasks, file), `${flag} ${file}`).toBe(eager(flag, tasks, file));
    }
    expect(await lazy('airline', retailTasks, 'r.json')).toBe(
      'error: --domain airline, but r.json is retail (told by the tools its gold actions call)',
    );
  });
});
