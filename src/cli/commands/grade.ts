import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { type GradedFile, type GradeSummary, gradeResultsFile } from '../../eval/grade-file.js';
import { gradeTrajectoriesFile } from '../../eval/grade-trajectories.js';
import { ChatModel, EndpointPool } from '../../llm/chat-model.js';
import { type RoleConfig, resolveRoleConfig } from '../../llm/config.js';
import { UsageMeter } from '../../llm/usage-meter.js';

interface GradeOptions {
  json?: boolean;
  judge?: string;
  judgeBaseUrl?: string;
  judgeApiKeyEnv?: string;
  tau2Data?: string;
}

function pct(a: number, b: number): string {
  return b === 0 ? '–' : `${((100 * a) / b).toFixed(1)} %`;
}

function human(g: GradedFile): string {
  const s = g.summary;
  const lines = [
    `${g.file}  (${g.domain}, written by τ² ${g.gitCommit.slice(0, 12)})`,
    `  simulations               ${s.simulations}`,
    `  tool calls replayed       ${s.tool_calls}`,
    `  tool outputs identical    ${s.tool_outputs_identical} (${pct(s.tool_outputs_identical, s.tool_calls)})`,
    `  reward agrees             ${s.agree_reward} (${pct(s.agree_reward, s.simulations)})`,
    `  db_check agrees           ${s.agree_db} (${pct(s.agree_db, s.simulations)})`,
    `  mislabelled simulations   ${s.mislabelled}`,
  ];
  for (const d of g.divergences) {
    lines.push(
      `  replay diverges: simulation ${d.simulation_id} (task ${d.task_id}) tool call #${d.call_index} ${d.tool}`,
      `    ours:   ${d.ours.error ? '[error] ' : ''}${d.ours.content.slice(0, 160)}`,
      `    theirs: ${d.theirs.error ? '[error] ' : ''}${d.theirs.content.slice(0, 160)}`,
      `    likely: ${d.reason}`,
    );
  }
  for (const m of s.mislabelled_simulations) {
    lines.push(
      `  mislabelled: simulation ${m.simulation_id} says task ${m.task_id}, its reward_info is task ${m.matches_task_id}'s`,
    );
  }
  for (const d of s.disagreements) {
    lines.push(
      `  reward differs: simulation ${d.simulation_id} (task ${d.task_id}) ours ${String(d.ours)}, theirs ${String(d.theirs)}: ${d.reason}`,
    );
  }
  return lines.join('\n');
}

/** Sums the summaries of several files into one `--json` object. */
function total(files: readonly GradedFile[]): GradeSummary {
  const sum = (
    k: 'simulations' | 'tool_calls' | 'tool_outputs_identical' | 'agree_reward' | 'agree_db' | 'mislabelled',
  ) => files.reduce((a, f) => a + f.summary[k], 0);
  return {
    simulations: sum('simulations'),
    tool_calls: sum('tool_calls'),
    tool_outputs_identical: sum('tool_outputs_identical'),
    agree_reward: sum('agree_reward'),
    agree_db: sum('agree_db'),
    mislabelled: sum('mislabelled'),
    mislabelled_simulations: files.flatMap((f) => f.summary.mislabelled_simulations),
    disagreements: files.flatMap((f) => f.summary.disagreements),
  };
}

/**
 * `cove grade <results.json…>`: re-grades τ² results files without any model (replay audit, reward recomputed
 * from the messages, mislabelled simulations). `--json` prints one JSON object on the last line of stdout.
 */
export function registerGrade(program: Command): void {
  program
    .command('grade')
    .description(
      're-grade τ² results files without a model: replay every tool call, recompute rewards, find mislabelled simulations',
    )
    .argument('<files...>', 'τ² results .json files, or cove trajectories.jsonl files')
    .option(
      '--json',
      'print one JSON object (the counts, mislabelled simulations and disagreements) on the last line',
    )
    .option(
      '--judge <model>',
      'openai:<model> judging NL assertions afresh (default: the verdicts recorded in the file)',
    )
    .option('--judge-base-url <url>', 'OpenAI-compatible base URL of the judge model')
    .option('--judge-api-key-env <name>', 'variable with the judge API key (default OPENAI_API_KEY)')
    .option('--tau2-data <dir>', 'τ² data directory (default: $COVE_TAU2_DATA, else an ancestor of the file)')
    .action(async (files: string[], options: GradeOptions) => {
      let judge: ChatModel | undefined;
      if (options.judge !== undefined) {
        if (!options.judge.startsWith('openai:')) {
          throw new ConfigError(`--judge must be openai:<model>, not '${options.judge}'`);
        }
        const config = resolveRoleConfig('judge', undefined, {
          model: options.judge,
          ...(options.judgeBaseUrl === undefined ? {} : { base_url: options.judgeBaseUrl }),
          ...(options.judgeApiKeyEnv === undefined ? {} : { api_key_env: options.judgeApiKeyEnv }),
        } as Partial<RoleConfig>);
        judge = new ChatModel('judge', config, {
          env: process.env,
          prices: {},
          meter: new UsageMeter(),
          endpoints: new EndpointPool(),
        });
      }
      const where = { tau2Data: options.tau2Data, env: process.env.COVE_TAU2_DATA };
      const graded: GradedFile[] = [];
      for (const f of files) {
        if (!f.endsWith('.jsonl')) {
          graded.push(await gradeResultsFile(f, { ...where, judge }));
          continue;
        }
        if (judge !== undefined) {
          process.stderr.write(
            `note: ${f}: --judge applies to results files; the recorded verdicts are used\n`,
          );
        }
        const g = gradeTrajectoriesFile(f, where);
        if (g.skipped > 0) {
          process.stderr.write(
            `note: ${f}: ${g.skipped} record(s) graded by CoVe's verifier were not re-graded\n`,
          );
        }
        graded.push(g);
      }
      if (options.json === true) process.stdout.write(`${JSON.stringify(total(graded))}\n`);
      else process.stdout.write(`${graded.map(human).join('\n\n')}\n`);
    });
}
