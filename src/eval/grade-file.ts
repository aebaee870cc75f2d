import { join } from 'node:path';
import { ConfigError, InputFileError } from '../core/errors.js';
import { loadDbFile, readJsonFile } from '../domains/load-db.js';
import { getDomain } from '../domains/registry.js';
import type { ChatModel } from '../llm/chat-model.js';
import type { ChatMessage } from '../sim/messages.js';
import { resolveTau2DomainDir } from '../tau2/data-dir.js';
import { readTau2Results } from '../tau2/results-file.js';
import {
  type CriteriaTask,
  criteriaTasks,
  type Disagreement,
  type Divergence,
  gradeSimulation,
  type Mislabelled,
  type SimulationGrade,
} from './grade-tau2.js';
import { judgeNlAssertions } from './nl-judge.js';
import { pyGet, simulationViews, type Tau2SimView } from './tau2-sim.js';

/** `cove grade --json`'s object (counts are integers). */
export interface GradeSummary {
  readonly simulations: number;
  readonly tool_calls: number;
  readonly tool_outputs_identical: number;
  readonly agree_reward: number;
  readonly agree_db: number;
  readonly mislabelled: number;
  readonly mislabelled_simulations: readonly Mislabelled[];
  readonly disagreements: readonly Disagreement[];
}

/** A graded results file: the summary, the first replay divergence per simulation, and every simulation's grade. */
export interface GradedFile {
  readonly file: string;
  readonly domain: string;
  readonly gitCommit: string;
  readonly summary: GradeSummary;
  readonly divergences: readonly Divergence[];
  readonly grades: readonly SimulationGrade[];
}

/** Where to find τ²'s data (docs/design.md §4): `--tau2-data`, then `$COVE_TAU2_DATA`, then the file's ancestors. */
export interface GradeFileOptions {
  readonly tau2Data?: string | undefined;
  readonly env?: string | undefined;
  /** Judges NL assertions afresh instead of using the recorded verdicts (`--judge`). */
  readonly judge?: ChatModel | undefined;
}

/**
 * Asks the judge about every simulation whose task has NL_ASSERTION in its basis with assertions (and that ended
 * by a stop, so τ²'s gate lets it be evaluated), one at a time.
 */
export async function judgeSimulations(
  views: readonly Tau2SimView[],
  tasks: readonly CriteriaTask[],
  judge: ChatModel,
): Promise<Map<string, { reward: number | null; error?: string }>> {
  const out = new Map<string, { reward: number | null; error?: string }>();
  for (const v of views) {
    if (v.termination !== 'user_stop' && v.termination !== 'agent_stop') continue;
    const c = tasks.find((t) => t.id === v.taskId)?.criteria ?? undefined;
    const basis = pyGet(c, 'reward_basis');
    const assertions = pyGet(c, 'nl_assertions');
    if (
      !Array.isArray(basis) ||
      !basis.includes('NL_ASSERTION') ||
      !Array.isArray(assertions) ||
      assertions.length === 0
    )
      continue;
    const j = await judgeNlAssertions(judge, v.taskId, v.transcript as ChatMessage[], assertions.map(String));
    out.set(v.id, { reward: j.reward, ...(j.error === undefined ? {} : { error: j.error }) });
  }
  return out;
}

/**
 * Re-grades a τ² results file written by the Python τ²-bench (any version whose simulations carry `messages`
 * and `reward_info`; extra fields are ignored) without any model: see `gradeSimulation`.
 * The DB is τ²'s pristine one from the τ² data directory (its hash is checked); the reference tasks that tell
 * a mislabelled simulation are that directory's `tasks.json`.
 * @throws {InputFileError} for a malformed file (naming the JSON path); {@link ConfigError} when no τ² data
 *   directory is found (the message names `--tau2-data` and `COVE_TAU2_DATA`) or the domain is unknown.
 */
export async function gradeResultsFile(file: string, options: GradeFileOptions = {}): Promise<GradedFile> {
  const checked = readTau2Results(file);
  const doc = readJsonFile(file);
  const domainName = checked.info.environment_info.domain_name;
  let domain: ReturnType<typeof getDomain>;
  try {
    domain = getDomain(domainName);
  } catch {
    throw new InputFileError(file, '$.info.environment_info.domain_name', `unknown domain '${domainName}'`);
  }
  let dir: string;
  try {
    dir = resolveTau2DomainDir(domain.name, {
      explicit: options.tau2Data,
      fromEnv: options.env,
      tasksFile: file,
    });
  } catch (e) {
    if (e instanceof ConfigError && options.tau2Data === undefined && !options.env) {
      throw new ConfigError(
        `${file} is not inside a τ² data directory: pass --tau2-data DIR or set COVE_TAU2_DATA to a folder holding ${domain.name}/db.json (a copy of τ²'s data, or an upstream tau2-bench data/tau2)`,
      );
    }
    throw e;
  }
  const loaded = loadDbFile(domain, join(dir, 'db.json'), { expectTau2Pristine: true });
  const own = criteriaTasks(pyGet(doc, 'tasks'));
  const reference: CriteriaTask[] = criteriaTasks(readJsonFile(join(dir, 'tasks.json')));
  const views = simulationViews(file, doc);
  const ctx = {
    base: loaded.base,
    tasks: new Map(own.map((t) => [t.id, t])),
    reference,
    gitCommit: checked.info.git_commit,
    goldHashes: new Map<string, string>(),
    ...(options.judge === undefined ? {} : { judged: await judgeSimulations(views, own, options.judge) }),
  };
  const grades = views.map((sim) => gradeSimulation(sim, ctx));
  return {
    file,
    domain: domain.name,
    gitCommit: checked.info.git_commit,
    summary: gradeSummary(grades),
    divergences: grades.flatMap((g) => (g.divergence === null ? [] : [g.divergence])),
    grades,
  };
}

/** The counts of a file's simulation grades (`cove grade --json`'s object). */
export function gradeSummary(grades: readonly SimulationGrade[]): GradeSummary {
  const mislabelled = grades.flatMap((g) => (g.mislabelled === null ? [] : [g.mislabelled]));
  return {
    simulations: grades.length,
    tool_calls: grades.reduce((s, g) => s + g.tool_calls, 0),
    tool_outputs_identical: grades.reduce((s, g) => s + g.tool_outputs_identical, 0),
    agree_reward: grades.filter((g) => g.agree_reward).length,
    agree_db: grades.filter((g) => g.agree_db).length,
    mislabelled: mislabelled.length,
    mislabelled_simulations: mislabelled,
    disagreements: grades.flatMap((g) => (g.disagreement === null ? [] : [g.disagreement])),
  };
}
