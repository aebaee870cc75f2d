import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseDb } from '../../src/cli/db-source.js';
import { deriveSeed, Rng } from '../../src/core/rng.js';
import { agentContext } from '../../src/domains/agent-context.js';
import { retailDomain } from '../../src/domains/retail/index.js';
import { type RunContext, runTaskEpisode } from '../../src/run/episode-runner.js';
import { scriptedRoles } from '../../src/run/roles.js';
import type { TrajectoryRecord } from '../../src/run/trajectory.js';
import { createRlApp, type RlAppOptions } from '../../src/server/rl/app.js';
import type { RlService } from '../../src/server/rl/service.js';
import { type ServeSetup, setupRlService } from '../../src/server/rl/setup.js';
import { type RunningServer, serveApp } from '../../src/server/serve.js';
import type { AssistantMessage, ChatMessage } from '../../src/sim/messages.js';
import type { CoveTask } from '../../src/tasks/cove-task.js';
import { synthesizeTasks } from '../../src/tasks/synthesize-tasks.js';

export const sim = retailDomain.simulation as NonNullable<typeof retailDomain.simulation>;

/** A tasks file of `n` generated retail tasks on a small sandbox (seed 3, 100 users, 200 orders). */
export async function writeTasksFile(n: number): Promise<{
  dir: string;
  file: string;
  tasks: CoveTask[];
  cleanup: () => void;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'cove-rl-'));
  const choice = chooseDb(retailDomain, { sandboxSeed: 3, size: { users: 100, orders: 200 } });
  const { tasks } = await synthesizeTasks(
    retailDomain,
    choice.loaded.base,
    {
      domain: 'retail',
      seed: 5,
      difficulty: 'mixed',
      fuzz: 2,
      semantics: 'parity',
      db: choice.source,
      coveVersion: 'test',
    },
    n,
  );
  choice.loaded.base.close();
  const file = join(dir, 'tasks.json');
  writeFileSync(file, `${JSON.stringify(tasks, null, 2)}\n`);
  return { dir, file, tasks, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The service over a tasks file, served on 127.0.0.1 (a real socket). */
export async function startService(
  setup: Omit<ServeSetup, 'env'> & { env?: ServeSetup['env'] },
  app: RlAppOptions = {},
): Promise<{ service: RlService; server: RunningServer; url: string; close: () => Promise<void> }> {
  const service = setupRlService({ env: {}, ...setup });
  const server = await serveApp(createRlApp(service, app), { keepAliveTimeoutMs: 75_000 });
  return {
    service,
    server,
    url: server.url,
    close: async () => {
      await server.close();
      service.close();
      service.options.base.close();
    },
  };
}

/** JSON over HTTP: status and parsed body. */
export async function call(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** The oracle agent of a task, seeded as `cove generate --seed <seed>` seeds trial 0 attempt 0. */
export function oracleAgent(task: CoveTask, seed: number) {
  return sim.createOracleAgent(
    task.cove,
    new Rng(deriveSeed(seed, 'episode', task.cove.index, 0, 0)).child('agent'),
  );
}

/**
 * Plays one episode over HTTP with the oracle agent in this process (the client plays the agent; the service
 * plays the scripted user). Returns the conversation as the client saw it and the final reward answer.
 */
export async function playOracle(
  url: string,
  task: CoveTask,
  seed: number,
  headers: Record<string, string> = {},
): Promise<{ id: string; messages: ChatMessage[]; reward: Record<string, unknown>; steps: number }> {
  const created = await call(`${url}/episodes`, 'POST', { task_id: task.id, seed }, headers);
  if (created.status !== 200) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.episode_id as string;
  const messages = [...(created.body.messages as ChatMessage[])];
  const agent = oracleAgent(task, seed);
  let done = created.body.done as boolean;
  let steps = 0;
  while (!done) {
    const turn = await agent.respond(messages);
    const r = await call(`${url}/episodes/${id}/step`, 'POST', { message: turn.message }, headers);
    if (r.status !== 200) throw new Error(`step: ${r.status} ${JSON.stringify(r.body)}`);
    messages.push(turn.message as AssistantMessage, ...(r.body.messages as ChatMessage[]));
    done = r.body.done as boolean;
    steps++;
  }
  const reward = await call(`${url}/episodes/${id}/reward`, 'GET', undefined, headers);
  return { id, messages, reward: reward.body, steps };
}

/** The same episode run in process by `cove generate`'s own runner (oracle agent, scripted user). */
export async function referenceRecord(
  service: RlService,
  task: CoveTask,
  seed: number,
): Promise<TrajectoryRecord> {
  const o = service.options;
  const context: RunContext = {
    run: 'reference',
    domain: o.domain,
    base: o.base,
    dbSha256: o.dbSha256,
    benchmarkData: o.benchmarkData,
    seed,
    settings: o.settings,
    agentContext: agentContext(o.domain, 'cove'),
    roles: scriptedRoles(o.domain),
    limits: o.limits,
    coveVersion: 'test',
  };
  return runTaskEpisode(context, { task, index: task.cove.index }, 0, 0);
}

const BIN = fileURLToPath(new URL('../../bin/cove.js', import.meta.url));

/** `cove serve` in its own process; resolves with its URL (first stdout line). */
export function startServe(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`cove serve exited (${code}): ${stderr}`)));
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve({ child, url: out.slice(0, out.indexOf('\n')), stderr: () => stderr });
    });
  });
}
