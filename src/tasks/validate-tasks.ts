import { InputFileError } from '../core/errors.js';
import { toPyValue } from '../core/py-value.js';
import type { Domain } from '../domains/domain.js';
import type { EnvironmentBase } from '../env/environment-base.js';
import { replayCalls } from '../env/replay.js';
import type { CoveTask } from './cove-task.js';

const REMAKE = 'fix the task, or make the tasks again with `cove tasks`';

/**
 * Checks a tasks file made by cove against its own DB before any episode runs, so a task edited by hand (or
 * damaged) is refused with the task and field named instead of running and blaming the agent: every constraint
 * kind is one the domain knows, every gold action replays without error on the DB (which also proves every id it
 * references is present), and every constraint holds after the gold actions.
 * @throws {InputFileError} naming the file, `$[i]…` and what to do.
 */
export function validateCoveTasks(
  domain: Domain,
  base: EnvironmentBase,
  tasks: readonly CoveTask[],
  file: string,
): void {
  const synthesis = domain.synthesis;
  const known = new Map((synthesis?.kinds ?? []).map((k) => [k.name, k]));
  tasks.forEach((task, i) => {
    const where = `$[${i}]`;
    const name = `task '${task.id}'`;
    task.cove.constraints.forEach((c, j) => {
      if (!known.has(c.kind)) {
        throw new InputFileError(
          file,
          `${where}.cove.constraints[${j}].kind`,
          `${name}: unknown constraint kind '${c.kind}' (${domain.name} knows: ${[...known.keys()].join(', ')}); ${REMAKE}`,
        );
      }
    });
    const actions = task.evaluation_criteria?.actions ?? [];
    const { episode, calls } = replayCalls(
      base,
      actions.map((a) => ({ name: a.name, arguments: toPyValue(a.arguments as never) })),
      { semantics: task.cove.semantics },
    );
    try {
      const failed = calls.findIndex((c) => c.error);
      if (failed !== -1) {
        throw new InputFileError(
          file,
          `${where}.evaluation_criteria.actions[${failed}]`,
          `${name}: gold action ${actions[failed]?.name} fails on the tasks' DB (${calls[failed]?.content}); ${REMAKE}`,
        );
      }
      task.cove.constraints.forEach((c, j) => {
        let verdict: { satisfied: boolean; evidence: string } | undefined;
        try {
          verdict = known.get(c.kind)?.predicate(c, {
            final: episode,
            semantics: task.cove.semantics,
            agentTexts: task.evaluation_criteria?.communicate_info ?? [],
          });
        } catch (e) {
          verdict = {
            satisfied: false,
            evidence: `its arguments cannot be checked: ${(e as Error).message}`,
          };
        }
        if (verdict !== undefined && !verdict.satisfied) {
          throw new InputFileError(
            file,
            `${where}.cove.constraints[${j}]`,
            `${name}: constraint ${c.id} (${c.kind}) does not hold after the task's own gold actions (${verdict.evidence}); ${REMAKE}`,
          );
        }
      });
    } finally {
      episode.close();
    }
  });
}
