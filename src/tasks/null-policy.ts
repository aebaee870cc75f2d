import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import type { Semantics } from '../env/tool.js';
import type { Evaluation } from '../eval/evaluator.js';
import { tau2Evaluator } from '../eval/tau2-evaluator.js';
import { EpisodeSession } from '../sim/episode-session.js';
import type { AssistantMessage } from '../sim/messages.js';
import type { UserSimulator } from '../sim/roles.js';
import { coveEvaluator } from '../verify/cove-evaluator.js';
import type { RunTask } from './task.js';

/**
 * The two null policies of issue 23 (docs/rewards.md): `do_nothing` makes no tool call and answers every
 * turn with one refusal; `read_only` reads every entity the task names by its exact id (user id and the
 * constraints' string arguments) with the domain's read tools — except the reads that identify the user, which
 * belong to a policy-abiding agent — and then answers with the same refusal. Neither ever writes.
 */
export type NullPolicy = 'do_nothing' | 'read_only';
export const NULL_POLICIES: readonly NullPolicy[] = ['do_nothing', 'read_only'];

/** The one refusal both null policies answer with. */
export const NULL_REFUSAL = 'I am sorry, but I cannot help with that request.';
const OPENING = 'Hello, I need some help with my account.';
/** Reads a `read_only` run makes at most (below τ²'s error limit even if every one failed). */
const MAX_READS = 9;

/**
 * The user of a null-policy run: opens with a fixed request, then stops after the agent's first text. This is
 * the most generous partner a null policy can meet (the episode always ends normally, by a user stop), so a task
 * that gives a null policy no reward here gives none with any user.
 */
function yieldingUser(): UserSimulator {
  return {
    respond: async (visible) => ({ content: visible.length <= 1 ? OPENING : '###STOP###' }),
  };
}

/** The tools whose calls identify the user in some constraint kind's grounding (the read-only policy skips them). */
function identifyTools(domain: Domain): Set<string> {
  return new Set(
    (domain.synthesis?.kinds ?? []).flatMap((k) => (k.grounding?.identify ?? []).map((r) => r.tool)),
  );
}

/**
 * The calls of the `read_only` policy on a task: every `read` tool (not an identify read) whose parameters can
 * all be filled from the task's ids — `user_id` from `cove.user_id`, and every string argument of its
 * constraints under its own name — once per distinct value of its first parameter (the others take their first
 * value); tools without parameters once. At most {@link MAX_READS} calls, in the domain's tool order.
 */
export function readOnlyCalls(
  domain: Domain,
  task: RunTask,
): { name: string; arguments: Record<string, string> }[] {
  const pool = new Map<string, string[]>();
  const add = (name: string, value: unknown) => {
    if (typeof value !== 'string') return;
    const values = pool.get(name) ?? [];
    if (!values.includes(value)) values.push(value);
    pool.set(name, values);
  };
  if (task.cove?.user_id !== undefined) add('user_id', task.cove.user_id);
  for (const c of task.cove?.constraints ?? []) for (const [k, v] of Object.entries(c.args)) add(k, v);
  const skip = identifyTools(domain);
  const calls: { name: string; arguments: Record<string, string> }[] = [];
  for (const tool of domain.tools) {
    if (tool.kind !== 'read' || skip.has(tool.name)) continue;
    if (!tool.params.every((p) => pool.has(p.name))) continue;
    const [first, ...rest] = tool.params;
    const firstValues = first === undefined ? [undefined] : (pool.get(first.name) as string[]);
    for (const value of firstValues) {
      const args: Record<string, string> = {};
      if (first !== undefined && value !== undefined) args[first.name] = value;
      for (const p of rest) args[p.name] = (pool.get(p.name) as string[])[0] as string;
      calls.push({ name: tool.name, arguments: args });
    }
  }
  return calls.slice(0, MAX_READS);
}

/**
 * Runs one null policy on a task through the real {@link EpisodeSession} on a private fork of `base` and grades
 * it with the task's evaluator (CoVe's verifier for tasks with a `cove` block, τ²'s reward rules otherwise).
 * Deterministic: no randomness is involved. τ² tasks get no reads (they name no ids), so `read_only` equals
 * `do_nothing` there.
 */
export async function nullPolicyEvaluation(
  domain: Domain,
  base: EnvironmentBase,
  task: RunTask,
  policy: NullPolicy,
  semantics: Semantics = task.cove?.semantics ?? 'parity',
): Promise<Evaluation> {
  const session = new EpisodeSession(base.fork({ semantics }), yieldingUser());
  try {
    await session.start();
    const calls = policy === 'read_only' && task.cove !== undefined ? readOnlyCalls(domain, task) : [];
    for (const [i, call] of calls.entries()) {
      if (session.done) break;
      const message: AssistantMessage = {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `null_${i + 1}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          },
        ],
      };
      await session.stepAgent(message);
    }
    while (!session.done) await session.stepAgent({ role: 'assistant', content: NULL_REFUSAL });
    const input = { task, outcome: session.outcome(), env: session.env };
    const graded =
      task.cove === undefined
        ? await Promise.resolve(tau2Evaluator.evaluate(input))
        : coveEvaluatorOf(domain).evaluate(input);
    return { evaluator: graded.evaluator, reward: graded.reward, report: graded.report };
  } finally {
    session.close();
  }
}

const evaluators = new WeakMap<Domain, ReturnType<typeof coveEvaluator>>();
function coveEvaluatorOf(domain: Domain): ReturnType<typeof coveEvaluator> {
  let e = evaluators.get(domain);
  if (e === undefined) {
    e = coveEvaluator(domain);
    evaluators.set(domain, e);
  }
  return e;
}

/**
 * The synthesis check of issue 23: every null policy that collects any reward on the task (a reward above 0, or
 * one that cannot be computed), with that reward; empty when each gets exactly 0 (the task is kept).
 */
export async function nullPoliciesPassing(
  domain: Domain,
  base: EnvironmentBase,
  task: RunTask,
): Promise<{ policy: NullPolicy; reward: number | null }[]> {
  const passing: { policy: NullPolicy; reward: number | null }[] = [];
  for (const policy of NULL_POLICIES) {
    const { reward } = await nullPolicyEvaluation(domain, base, task, policy);
    if (reward !== 0) passing.push({ policy, reward });
  }
  return passing;
}
