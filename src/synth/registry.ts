import { judgeStage } from './judge-stage.js';
import type { Stage } from './stage.js';
import { tasksStage } from './tasks-stage.js';

/**
 * The stages `cove synth <stage>` and pipeline configs can name. A stage module exports one {@link Stage}; add a
 * line here to make a new one runnable.
 */
// biome-ignore lint/suspicious/noExplicitAny: stages differ in their record types; the runner validates them
export type AnyStage = Stage<any, any>;

export const STAGES: ReadonlyMap<string, AnyStage> = new Map<string, AnyStage>([
  [tasksStage.name, tasksStage],
  [judgeStage.name, judgeStage],
]);

/** The stage named `name`. @returns undefined for an unknown name */
export function findStage(name: string): AnyStage | undefined {
  return STAGES.get(name);
}
