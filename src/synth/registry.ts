import type { Stage } from './stage.js';
import { expandStage } from './stages/expand.js';
import { judgeStage } from './stages/judge.js';
import { questionsStage } from './stages/questions.js';
import { schemasStage } from './stages/schemas.js';
import { sqlStage } from './stages/sql.js';
import { tasksStage } from './stages/tasks.js';
import { toolsStage } from './stages/tools.js';

/**
 * The stages `cove synth <stage>` and pipeline configs can name. A stage module exports one {@link Stage}; add a
 * line here to make a new one runnable.
 */
// biome-ignore lint/suspicious/noExplicitAny: stages differ in their record types; the runner validates them
export type AnyStage = Stage<any, any>;

export const STAGES: ReadonlyMap<string, AnyStage> = new Map<string, AnyStage>([
  ['questions', questionsStage],
  ['tools', toolsStage],
  ['expand', expandStage],
  ['schemas', schemasStage],
  ['sql', sqlStage],
  ['tasks', tasksStage],
  ['judge', judgeStage],
]);

/** The stage named `name`. @returns undefined for an unknown name */
export function findStage(name: string): AnyStage | undefined {
  return STAGES.get(name);
}
