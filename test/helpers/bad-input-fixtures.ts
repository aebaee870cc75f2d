import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseDb } from '../../src/cli/db-source.js';
import { pyJsonDumps } from '../../src/core/py-json.js';
import { sandboxSize } from '../../src/domains/domain.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';
import { COVE_VERSION } from '../../src/version.js';

/** Small valid inputs the bad-input cases start from (each case damages a copy). */
export interface Fixtures {
  /** 3 cove tasks on the sandbox of seed 1 (default size). */
  readonly tasks: string;
  readonly tasksValue: CoveTask[];
  /** A small retail sandbox db.json (seed 3, 20 users, 40 orders). */
  readonly db: string;
  /** A valid --config with a model agent on a loopback URL. */
  readonly config: string;
  /** A valid mock-llm --script. */
  readonly script: string;
}

/** Writes the fixtures into `dir`, in this process (no CLI start: the machine may be loaded). */
export async function makeFixtures(dir: string): Promise<Fixtures> {
  mkdirSync(dir, { recursive: true });
  const domain = retailDomain;
  const choice = chooseDb(domain, { sandboxSeed: 1 });
  const result = await synthesizeTasks(
    domain,
    choice.loaded.base,
    {
      domain: 'retail',
      seed: 1,
      difficulty: 'mixed',
      fuzz: 2,
      semantics: 'parity',
      db: choice.source,
      coveVersion: COVE_VERSION,
    },
    3,
  );
  choice.loaded.base.close();
  const tasks = join(dir, 'tasks.json');
  writeFileSync(tasks, `${JSON.stringify(result.tasks, null, 2)}\n`);
  const sandbox = domain.sandbox as NonNullable<typeof domain.sandbox>;
  const db = join(dir, 'db.json');
  writeFileSync(
    db,
    pyJsonDumps(sandbox.generate(3, sandboxSize(sandbox, { users: 20, orders: 40 })), { indent: 4 }),
  );
  const config = join(dir, 'cove.json');
  writeFileSync(
    config,
    JSON.stringify({ roles: { agent: { model: 'openai:m', base_url: 'http://127.0.0.1:9/v1' } } }),
  );
  const script = join(dir, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({ agent: [{ content: 'Hello.' }], user: [{ content: '###STOP###' }] }),
  );
  return { tasks, tasksValue: result.tasks as CoveTask[], db, config, script };
}
