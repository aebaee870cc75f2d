import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import { CoveError, InputFileError } from '../../core/errors.js';
import { parsePyJson } from '../../core/py-json-parse.js';
import { deriveSeed, Rng } from '../../core/rng.js';
import type { Domain } from '../../domains/domain.js';
import type { EnvironmentBase } from '../../env/environment-base.js';
import type { Semantics } from '../../env/tool.js';
import { episodeRecord, type IndexedTask } from '../../run/episode-runner.js';
import type { TrajectorySettings } from '../../run/trajectory.js';
import type { AgentContext } from '../../sim/agent-context.js';
import { type EpisodeLimits, EpisodeSession } from '../../sim/episode-session.js';
import type { ChatMessage } from '../../sim/messages.js';
import { readCoveBlocks } from '../../tasks/cove-task.js';
import { type RunTask, runTaskFromTau2, taskIndex } from '../../tasks/task.js';
import { parseTau2Tasks } from '../../tasks/tau2-task.js';
import { parseChatMl } from './chatml.js';
import type { EpisodeRecorder } from './recorder.js';
import { EpisodeRegistry, type LiveEpisode } from './registry.js';
import { conversationReward, gradeNow, type RewardAnswer } from './reward.js';
import type { UserFactory } from './users.js';
import {
  type assistantInSchema,
  assistantMessage,
  conversation,
  type createSchema,
  type openRlhfSchema,
  RequestError,
  type rewardSchema,
} from './wire.js';

/** Everything the episode service serves from. */
export interface RlServiceOptions {
  readonly domain: Domain;
  readonly base: EnvironmentBase;
  readonly dbSha256: string;
  readonly benchmarkData: boolean;
  readonly semantics: Semantics;
  readonly tasks: readonly RunTask[];
  readonly agentContext: AgentContext;
  /** Settings recorded with each trajectory; `guidelines` is replaced per episode by the user who played it. */
  readonly settings: TrajectorySettings;
  /** The `guidelines` label of episodes with a model-played user (`cove-1`, `tau2`). */
  readonly modelUserGuidelines: string;
  readonly limits: EpisodeLimits;
  readonly users: UserFactory;
  /** The user of an episode whose creation names none (`scripted`, or `openai:<model>`). */
  readonly defaultUser: string;
  readonly maxEpisodes: number;
  readonly idleTimeoutMs: number;
  readonly runName: string;
  readonly coveVersion: string;
  /** Where finished episodes are recorded (`--record`). */
  readonly recorder?: EpisodeRecorder;
  /** Discount per redundant write of CoVe's score. @defaultValue 0.5 */
  readonly gamma?: number;
  /** Told about failures that do not concern the client (a record that could not be written). */
  readonly onWarning?: (message: string) => void;
}

/** The name trajectories of the service give the agent: the trainer's policy, played outside cove. */
export const EXTERNAL_AGENT = 'external';

/**
 * The RL episode service behind `cove serve` (its HTTP routes are in `app.ts`): episodes of the loaded tasks that
 * a client plays turn by turn as the agent, with the user simulator live in the service; the task's evaluator as
 * the reward, for live episodes and for conversations produced elsewhere. Errors a client can fix are thrown as
 * {@link RequestError}s with their 4xx status.
 */
export class RlService {
  readonly options: RlServiceOptions;
  readonly registry: EpisodeRegistry;
  readonly #tasks: Map<string, IndexedTask>;

  constructor(options: RlServiceOptions) {
    this.options = options;
    this.registry = new EpisodeRegistry(options);
    this.#tasks = new Map(options.tasks.map((task, i) => [task.id, { task, index: taskIndex(task, i) }]));
  }

  /** The tasks served: id, index, evaluator and the user roles that can play them. */
  listTasks(): { task_id: string; index: number; evaluator: 'cove' | 'tau2'; scripted_user: boolean }[] {
    return [...this.#tasks.values()].map(({ task, index }) => ({
      task_id: task.id,
      index,
      evaluator: task.cove === undefined ? 'tau2' : 'cove',
      scripted_user: task.cove !== undefined && this.options.domain.simulation !== undefined,
    }));
  }

  /** A served task. @throws {RequestError} 404 for an unknown id. */
  task(id: string): IndexedTask {
    const task = this.#tasks.get(id);
    if (task === undefined) throw new RequestError(404, `no task '${id}' (GET /tasks lists them)`);
    return task;
  }

  /**
   * Starts an episode: a fork of the base, the user simulator of `user` (the default when absent) seeded from
   * (seed, task index) as `cove generate --seed <seed>` seeds trial 0 attempt 0, the greeting and the user's first
   * message. A random seed is drawn when none is given.
   */
  async create(body: z.output<typeof createSchema>) {
    const task = this.task(body.task_id);
    this.registry.reserve();
    const seed = body.seed ?? randomInt(0, 2 ** 32 - 1);
    const episodeSeed = deriveSeed(seed, 'episode', task.index, 0, 0);
    const rng = new Rng(episodeSeed);
    const spec = body.user ?? this.options.defaultUser;
    let user: ReturnType<UserFactory['create']>;
    try {
      user = this.options.users.create(spec, task.task, rng.child('user'));
    } catch (e) {
      if (e instanceof CoveError) throw new RequestError(422, e.message);
      throw e;
    }
    const session = new EpisodeSession(
      this.options.base.fork({ semantics: this.options.semantics }),
      user.user,
      {
        limits: this.options.limits,
      },
    );
    const live: LiveEpisode = {
      id: this.registry.newId(),
      task,
      session,
      userName: user.name,
      seed: episodeSeed,
      startedAt: performance.now(),
      lastActive: Date.now(),
      busy: true,
      calls: 0,
    };
    this.registry.add(live);
    try {
      await session.start();
    } finally {
      live.busy = false;
      live.lastActive = Date.now();
    }
    if (session.done) await this.#finish(live);
    return {
      episode_id: live.id,
      task_id: task.task.id,
      system_prompt: this.options.agentContext.systemPrompt,
      tools: this.options.agentContext.tools,
      messages: session.messages,
      done: session.done,
      ...(session.termination === undefined ? {} : { termination_reason: session.termination }),
    };
  }

  /**
   * One assistant message of the agent: its tool results, or the user simulator's reply.
   * @throws {RequestError} 404 unknown episode, 409 when the episode is over or a step is under way.
   */
  async step(id: string, message: z.output<typeof assistantInSchema>) {
    const live = this.registry.get(id);
    const session = live.session;
    if (live.busy) throw new RequestError(409, `episode ${id} has a step under way; send one step at a time`);
    if (session.done)
      throw new RequestError(
        409,
        `episode ${id} is over (${session.termination}); GET its reward or DELETE it`,
      );
    const assistant = assistantMessage(message, `${live.calls++}`);
    live.busy = true;
    let result: Awaited<ReturnType<EpisodeSession['stepAgent']>>;
    try {
      result = await session.stepAgent(assistant);
    } finally {
      live.busy = false;
      live.lastActive = Date.now();
    }
    if (result.done) await this.#finish(live);
    return {
      // the environment's answer only: the agent's own message is not echoed back
      messages: result.messages.filter((m) => m.role !== 'assistant'),
      done: result.done,
      ...(result.termination === undefined ? {} : { termination_reason: result.termination }),
    };
  }

  /**
   * The evaluator's reward now (0 before the episode ends, by the termination gate); a finished episode's verdict
   * is computed once, when it ends. @throws {RequestError} 404 unknown episode.
   */
  async reward(id: string): Promise<{ done: boolean } & RewardAnswer> {
    const live = this.registry.get(id);
    if (live.final !== undefined) return { done: true, ...live.final };
    // during a text step only the user simulator is awaited: the state is not being written, grading it is safe
    const answer = await gradeNow(this.options, live.task, {
      messages: live.session.messages,
      toolCalls: live.session.toolCalls,
      termination: live.session.termination,
      env: live.session.env,
    });
    return { done: live.session.done, ...answer };
  }

  /** The trajectory so far. */
  view(id: string) {
    const live = this.registry.get(id);
    const s = live.session;
    return {
      episode_id: live.id,
      task_id: live.task.task.id,
      user: live.userName,
      seed: live.seed,
      done: s.done,
      ...(s.termination === undefined ? {} : { termination_reason: s.termination }),
      /** True while a text step waits for the user simulator. */
      step_under_way: live.busy,
      messages: s.messages,
      tool_calls: s.toolCalls.map((c) => ({ id: c.id, name: c.name, error: c.error, changed: c.changed })),
    };
  }

  /** Closes an episode (its writes are rolled back). */
  remove(id: string): { deleted: string; done: boolean } {
    const live = this.registry.delete(id);
    return { deleted: live.id, done: live.session.done };
  }

  /** `POST /reward`: the task's evaluator on a conversation produced elsewhere (its tool calls replayed). */
  async conversationReward(body: z.output<typeof rewardSchema>): Promise<RewardAnswer> {
    const task = body.task_id !== undefined ? this.task(body.task_id) : this.#inlineTask(body.task);
    return conversationReward(this.#grading(), task, conversation(body.messages));
  }

  /**
   * `POST /openrlhf/reward`: OpenRLHF's remote reward model protocol. Each label names a task (its id, or JSON
   * `{"task_id": …}`); each query is the decoded conversation in the ChatML template with Hermes tool calls
   * (Qwen's), parsed back into messages. A query that cannot be read scores 0 and is counted in
   * `extra_logs.unreadable`. @throws {RequestError} 400 when `query` and `labels` differ in length.
   */
  async openRlhf(body: z.output<typeof openRlhfSchema>) {
    if (body.query.length !== body.labels.length) {
      throw new RequestError(
        400,
        `$.labels: ${body.labels.length} labels for ${body.query.length} queries (one label, a task id, per query)`,
      );
    }
    const rewards: number[] = [];
    const unreadable: number[] = [];
    const notEvaluated: number[] = [];
    for (let i = 0; i < body.query.length; i++) {
      const label = body.labels[i] as string;
      let taskId = label;
      if (label.trimStart().startsWith('{')) {
        try {
          taskId = String((JSON.parse(label) as { task_id?: unknown }).task_id ?? '');
        } catch {
          throw new RequestError(400, `$.labels[${i}]: not JSON and not a task id`);
        }
      }
      const task = this.task(taskId);
      const messages = parseChatMl(body.query[i] as string);
      if (messages === undefined) {
        rewards.push(0);
        unreadable.push(1);
        notEvaluated.push(0);
        continue;
      }
      const answer = await conversationReward(this.#grading(), task, messages);
      rewards.push(answer.reward ?? 0);
      unreadable.push(0);
      notEvaluated.push(answer.reward === null ? 1 : 0);
    }
    return { rewards, scores: rewards, extra_logs: { unreadable, not_evaluated: notEvaluated } };
  }

  /** Closes every live episode and the recorder (writing its derived files). */
  close(): void {
    this.registry.close();
    this.options.recorder?.close();
  }

  #grading() {
    return {
      domain: this.options.domain,
      base: this.options.base,
      semantics: this.options.semantics,
      ...(this.options.gamma === undefined ? {} : { gamma: this.options.gamma }),
    };
  }

  /** Grades a finished episode once, and records it with `--record`. */
  async #finish(live: LiveEpisode): Promise<void> {
    if (live.final !== undefined) return;
    const outcome = live.session.outcome();
    const record = await episodeRecord(
      {
        run: this.options.runName,
        domain: this.options.domain,
        dbSha256: this.options.dbSha256,
        benchmarkData: this.options.benchmarkData,
        settings: {
          ...this.options.settings,
          guidelines: live.userName === 'scripted' ? 'scripted' : this.options.modelUserGuidelines,
        },
        agentContext: this.options.agentContext,
        coveVersion: this.options.coveVersion,
        ...(this.options.gamma === undefined ? {} : { gamma: this.options.gamma }),
      },
      { agent: EXTERNAL_AGENT, user: live.userName },
      live.task,
      {
        id: live.id,
        trial: 0,
        attempt: 0,
        seed: live.seed,
        outcome,
        env: live.session.env,
        startedAt: live.startedAt,
      },
    );
    const evaluation = record.evaluation ?? { evaluator: 'none', reward: null, report: {} };
    live.final = {
      reward: evaluation.reward,
      report: {
        evaluator: evaluation.evaluator,
        termination: outcome.termination,
        ...evaluation.report,
        ...(record.verification === undefined ? {} : { verification: record.verification }),
      },
    };
    try {
      this.options.recorder?.append(record);
    } catch (e) {
      this.options.onWarning?.(`could not record episode ${live.id}: ${(e as Error).message}`);
    }
  }

  /** A task sent in a request body: a τ² task, or a cove task made on this service's DB. */
  #inlineTask(value: Record<string, unknown> | undefined): IndexedTask {
    const where = 'the request body';
    try {
      const raw = parsePyJson(JSON.stringify([value]));
      const [loaded] = parseTau2Tasks(raw, where);
      if (loaded === undefined) throw new RequestError(400, '$.task: missing');
      if (value !== undefined && 'cove' in value) {
        const [block] = readCoveBlocks([loaded.raw], [loaded.task.id], where);
        const hash = (block?.db as { canonical_sha256?: string } | undefined)?.canonical_sha256;
        if (block?.domain !== this.options.domain.name || hash !== this.options.dbSha256) {
          throw new RequestError(
            422,
            `$.task.cove: the task was made for domain ${block?.domain} on DB ${hash?.slice(0, 12)}…, this service serves ${this.options.domain.name} on ${this.options.dbSha256.slice(0, 12)}…`,
          );
        }
      }
      const task = runTaskFromTau2(loaded);
      return { task, index: taskIndex(task, -1) };
    } catch (e) {
      if (e instanceof InputFileError)
        throw new RequestError(400, `${e.path.replace(/^\$\[0\]/, '$.task')}: ${e.reason}`);
      if (e instanceof CoveError) throw new RequestError(400, e.message);
      throw e;
    }
  }
}

export type { ChatMessage };
