import { toPyValue } from '../core/py-value.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { replayCalls } from '../env/replay.js';
import type { CoveTask } from './cove-task.js';
import type { DomainSynthesis } from './synthesis.js';

/**
 * Independent re-check of a written task: replays its `evaluation_criteria.actions` on a fresh episode (every one
 * must succeed) and evaluates every constraint's predicate on the result, with the `communicate_info` strings
 * as the agent's words. Returns the problems found (empty: solvable).
 */
export function checkTaskSolvable(
  synthesis: DomainSynthesis,
  base: EnvironmentBase,
  task: CoveTask,
): string[] {
  const actions = task.evaluation_criteria.actions.map((a) => ({
    name: a.name,
    arguments: toPyValue(a.arguments),
  }));
  const { episode, calls } = replayCalls(base, actions, { semantics: task.cove.semantics });
  try {
    const problems = calls.filter((c) => c.error).map((c) => `${c.name} failed: ${c.content}`);
    for (const c of task.cove.constraints) {
      const kind = synthesis.kinds.find((k) => k.name === c.kind);
      const verdict = kind?.predicate(c, {
        final: episode,
        semantics: task.cove.semantics,
        agentTexts: task.evaluation_criteria.communicate_info,
      });
      if (verdict === undefined || !verdict.satisfied)
        problems.push(`${c.id} not satisfied: ${verdict?.evidence ?? 'unknown kind'}`);
    }
    return problems;
  } finally {
    episode.close();
  }
}

/** Every id a task hides that occurs in its user-facing text (must be none). */
export function leakedIds(task: CoveTask, hiddenIds: readonly string[]): string[] {
  const text = JSON.stringify(task.user_scenario);
  return hiddenIds.filter((id) => text.includes(id));
}
