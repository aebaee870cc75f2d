import { ConfigError, InputFileError } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import type { Domain } from '../domains/domain.js';
import type { Semantics } from '../env/tool.js';
import { readInputText } from '../io/read-input.js';
import type { TaskSource } from '../run/task-source.js';
import { descriptiveRunTask, readDescriptiveTasks } from '../synth/descriptive/descriptive-task.js';
import { chooseDb } from './db-source.js';
import type { ResolvedRoles } from './role-flags.js';

/**
 * The tasks of `cove generate --tasks tasks.jsonl` when the file holds descriptive tasks (the `tasks` stage's
 * records, docs/descriptive-tasks.md): every record must be of `domain` and written against the database the run
 * uses (`db`: `--db`, or the spec's own), checked by its canonical hash.
 * @throws {InputFileError} naming the file, the line and the field; {@link ConfigError} for another database.
 */
export function descriptiveTaskSource(
  domain: Domain,
  file: string,
  options: { readonly db: string | undefined; readonly semantics: Semantics },
): TaskSource {
  const records = readDescriptiveTasks(file);
  records.forEach((r, i) => {
    if (r.domain !== domain.name)
      throw new InputFileError(file, `line ${i + 1}: $.domain`, `is ${r.domain}, not ${domain.name}`);
  });
  if (options.db === undefined) {
    throw new ConfigError(
      `${file} holds descriptive tasks: give the database they were written against with --db (or --domain-spec, whose database is used)`,
    );
  }
  const choice = chooseDb(domain, { db: options.db });
  const hash = choice.loaded.hashes.canonical_sha256;
  const other = records.findIndex((r) => r.db_sha256 !== hash);
  if (other !== -1) {
    choice.loaded.base.close();
    throw new ConfigError(
      `${file}: line ${other + 1}: task ${records[other]?.id} was written against another database (canonical hash ` +
        `${records[other]?.db_sha256.slice(0, 12)}…, ${options.db} is ${hash.slice(0, 12)}…); pass the database it was written against with --db`,
    );
  }
  const tasks = records.map(descriptiveRunTask);
  return {
    loaded: choice.loaded,
    sourceId: `tasks:${sha256Hex(readInputText(file)).slice(0, 16)}`,
    tasks: async (n) => tasks.slice(0, n),
    open: false,
    cove: false,
    semantics: options.semantics,
  };
}

/**
 * The role checks of a `cove generate` run that may hold descriptive tasks: such tasks need a model-played agent
 * and user and run in one process; a judge is only for them. `note` gets a line when they run without a judge.
 * @throws {ConfigError} saying what to change.
 */
export function checkDescriptiveRun(
  descriptive: boolean,
  flags: {
    readonly tasks?: string;
    readonly judge?: string;
    readonly config?: string;
    readonly queue?: string;
  },
  roles: ResolvedRoles,
  note: (line: string) => void,
): void {
  if (descriptive && (roles.choice.agent === 'oracle' || roles.choice.user === 'scripted')) {
    throw new ConfigError(
      `${flags.tasks} holds descriptive tasks (no constraints to play from): run them with --agent openai:<model> and --user openai:<model>`,
    );
  }
  if (!descriptive && roles.judge !== undefined) {
    const flag = flags.judge !== undefined;
    throw new ConfigError(
      `${flag ? '--judge' : `${flags.config}: $.roles.judge`} judges descriptive tasks (\`cove synth tasks\`); these tasks are graded by their own evaluator: drop ${flag ? '--judge' : 'roles.judge'}`,
    );
  }
  if (descriptive && flags.queue !== undefined) {
    throw new ConfigError(
      `--queue cannot run descriptive tasks yet (${flags.tasks}): workers do not play the judge; run them in one process (without --queue)`,
    );
  }
  if (descriptive && roles.judge === undefined) {
    note('note: no --judge: descriptive episodes are run but not judged, and none enters sft.jsonl\n');
  }
}
