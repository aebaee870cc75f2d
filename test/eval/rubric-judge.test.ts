import { describe, expect, it } from 'vitest';
import type { OpenAiTool } from '../../src/env/openai-tools.js';
import { descriptiveEvaluation } from '../../src/eval/descriptive-verdict.js';
import type { RubricJudgment } from '../../src/eval/rubric-judge.js';
import { decideRubricReply, JudgeReplyError } from '../../src/eval/rubric-judge-reply.js';
import { keptForSft, type TrajectoryRecord } from '../../src/run/trajectory.js';
import type { ChatMessage } from '../../src/sim/messages.js';
import type { DescriptiveGoal } from '../../src/tasks/descriptive-block.js';
import { checkTrajectory } from '../../src/verify/trajectory-checks.js';

/**
 * The rubric judge's decision rules and the deterministic checks, on hand-written replies and conversations: every
 * expected verdict below is worked out by hand from the rules in docs/descriptive-tasks.md.
 */

const goals: DescriptiveGoal[] = [
  {
    description: 'Find the album Big Ones and tell me its artist.',
    difficulty: 'medium',
    rubric: [
      'The artist is told as the tools return it',
      'search_album_by_title is called',
      'The agent is brief',
    ],
  },
  { description: 'Rename artist 3 to Aerosmith Live.', difficulty: 'easy', rubric: ['Artist 3 is renamed'] },
];

const item = (goal: number, n: number, cls: string, met: boolean | null, extra: object = {}) => ({
  goal,
  item: n,
  class: cls,
  met,
  reason: `g${goal}i${n}`,
  ...extra,
});

const allMet = [
  item(1, 1, 'critical', true),
  item(1, 2, 'structural', true),
  item(1, 3, 'non_critical', true),
  item(2, 1, 'critical', true),
];

function reply(items: object[], judgment: string, toolErrors: object[] = []): string {
  return JSON.stringify({ items, tool_errors: toolErrors, judgment, reasoning: 'r' });
}

describe('rubric judge decision', () => {
  it('passes when every critical item is met and the judge says valid', () => {
    const d = decideRubricReply(reply(allMet, 'valid'), goals, new Set());
    expect(d.passed).toBe(true);
    expect(d.classes).toEqual({ critical: 2, structural: 1, non_critical: 1, invalid: 0 });
    expect(d.items.map((i) => i.text)).toEqual([...(goals[0]?.rubric ?? []), 'Artist 3 is renamed']);
  });

  it('rejects on one unmet critical item even when the judge says valid; structural and non-critical misses do not', () => {
    const critical = [...allMet.slice(0, 3), item(2, 1, 'critical', false)];
    const d = decideRubricReply(reply(critical, 'valid'), goals, new Set());
    expect(d.passed).toBe(false);
    expect(d.critical_failures).toEqual(['goal 2 item 1: Artist 3 is renamed: g2i1']);
    expect(d.notes.some((n) => n.includes('the judge said valid'))).toBe(true);
    const soft = [
      item(1, 1, 'critical', true),
      item(1, 2, 'structural', false),
      item(1, 3, 'NonCritical', false),
      item(2, 1, 'critical', true),
    ];
    expect(decideRubricReply(reply(soft, 'valid'), goals, new Set()).passed).toBe(true);
  });

  it('an invalid rubric item (met null) is not a failure; the model saying invalid still rejects', () => {
    const withInvalid = [
      item(1, 1, 'critical', true),
      item(1, 2, 'InvalidRubric', null),
      item(1, 3, 'non-critical', true),
      item(2, 1, 'critical', true),
    ];
    const d = decideRubricReply(reply(withInvalid, 'valid'), goals, new Set());
    expect(d.passed).toBe(true);
    expect(d.classes.invalid).toBe(1);
    expect(decideRubricReply(reply(withInvalid, 'INVALID'), goals, new Set()).passed).toBe(false);
  });

  it('error-aware: a critical item blocked by a handled tool error is excused; by an unhandled one, or by a call whose result is no error, it is not', () => {
    const blocked = [...allMet.slice(0, 3), item(2, 1, 'critical', false, { excused_by: 'call_7' })];
    const handled = decideRubricReply(
      reply(blocked, 'valid', [{ call_id: 'call_7', handled: true, reason: 'reported' }]),
      goals,
      new Set(['call_7']),
    );
    expect(handled.passed).toBe(true);
    expect(handled.items[3]?.excused).toBe(true);
    const unhandled = decideRubricReply(
      reply(blocked, 'valid', [{ call_id: 'call_7', handled: false, reason: 'claimed success' }]),
      goals,
      new Set(['call_7']),
    );
    expect(unhandled.passed).toBe(false);
    expect(unhandled.unhandled_tool_errors).toEqual(['call_7: claimed success']);
    expect(unhandled.critical_failures).toHaveLength(1);
    // the judge excuses by a call whose result is not an error: the excuse is refused, the item fails
    const noError = decideRubricReply(
      reply(blocked, 'valid', [{ call_id: 'call_7', handled: true, reason: 'x' }]),
      goals,
      new Set(),
    );
    expect(noError.passed).toBe(false);
    expect(noError.notes).toContain(
      'goal 2 item 1: excuse call_7 not accepted (no error result has that call id)',
    );
  });

  it('a handled tool error with every item met passes; an unhandled one rejects', () => {
    const errors = new Set(['call_1']);
    expect(
      decideRubricReply(reply(allMet, 'valid', [{ call_id: 'call_1', handled: true }]), goals, errors).passed,
    ).toBe(true);
    expect(
      decideRubricReply(reply(allMet, 'valid', [{ call_id: 'call_1', handled: false }]), goals, errors)
        .passed,
    ).toBe(false);
  });

  it('refuses replies that cannot be decided, naming the field', () => {
    const bad: [string, string][] = [
      ['I think it went fine.', 'not a JSON object'],
      [reply(allMet.slice(0, 3), 'valid'), '$.items: goal 2 item 1 is not judged'],
      [reply([...allMet, item(2, 1, 'critical', true)], 'valid'), 'goal 2 item 1 is judged twice'],
      [reply([...allMet, item(3, 1, 'critical', true)], 'valid'), 'there is no goal 3 item 1'],
      [reply([item(1, 1, 'critical', null), ...allMet.slice(1)], 'valid'), '$.items[0].met: null'],
      [reply(allMet, 'maybe'), '$.judgment'],
      [reply([item(1, 1, 'vital', true), ...allMet.slice(1)], 'valid'), '$.items[0].class'],
    ];
    for (const [text, why] of bad) {
      expect(() => decideRubricReply(text, goals, new Set())).toThrow(JudgeReplyError);
      expect(() => decideRubricReply(text, goals, new Set())).toThrow(why);
    }
    // a tool error of the conversation left out of tool_errors
    expect(() => decideRubricReply(reply(allMet, 'valid'), goals, new Set(['call_9']))).toThrow(
      'the error result of call call_9 is not listed',
    );
    // a fenced reply is read
    expect(
      decideRubricReply(`Verdict:\n\`\`\`json\n${reply(allMet, 'valid')}\n\`\`\``, goals, new Set()).passed,
    ).toBe(true);
  });
});

const tools: OpenAiTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_track',
      description: 'Look up one track.',
      parameters: { type: 'object', properties: { track_id: { type: 'integer' } }, required: ['track_id'] },
    },
  },
];
const call = (id: string, name: string, args: string): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
});

describe('deterministic trajectory checks', () => {
  it('a known tool with schema-valid arguments, ended by a stop, passes', () => {
    const c = checkTrajectory({
      messages: [call('c1', 'get_track', '{"track_id": 3}')],
      tools,
      termination: 'user_stop',
    });
    expect(c).toEqual({ passed: true, failures: [], tool_calls: 1 });
  });

  it('names each bad call and a termination that is not a stop', () => {
    const c = checkTrajectory({
      messages: [
        call('c1', 'get_tracks', '{"track_id": 3}'),
        call('c2', 'get_track', '{"track_id": "3"}'),
        call('c3', 'get_track', '{}'),
        call('c4', 'get_track', '{"track_id": 3, "verbose": true}'),
        call('c5', 'get_track', '{"track_id": 3'),
      ],
      tools,
      termination: 'max_steps',
    });
    expect(c.passed).toBe(false);
    expect(c.failures).toEqual([
      'message 0, call c1 get_tracks: no tool of that name was given to the agent',
      'message 1, call c2 get_track: argument track_id: string is not integer',
      'message 2, call c3 get_track: argument track_id: missing',
      "message 3, call c4 get_track: unknown argument 'verbose'",
      expect.stringMatching(/^message 4, call c5 get_track: arguments are not valid JSON/),
      'the episode ended by max_steps, not by a stop',
    ]);
  });
});

const passingJudgment: RubricJudgment = {
  passed: true,
  model: 'openai:judge',
  prompt: 'p',
  raw: ['{}'],
  attempts: 1,
  usage: { prompt_tokens: 1, completion_tokens: 1, cost_usd: 0 },
};

describe('a judgment can never turn a deterministic failure into a pass', () => {
  const failedChecks = checkTrajectory({
    messages: [call('c1', 'nope', '{}')],
    tools,
    termination: 'user_stop',
  });
  const goodChecks = checkTrajectory({
    messages: [call('c1', 'get_track', '{"track_id": 1}')],
    tools,
    termination: 'user_stop',
  });

  it('reward 0 when a check failed, whatever the judge says; null when no judge ran', () => {
    expect(descriptiveEvaluation(failedChecks, passingJudgment).reward).toBe(0);
    expect(descriptiveEvaluation(failedChecks, passingJudgment).report.passed).toBe(false);
    expect(descriptiveEvaluation(goodChecks, null).reward).toBe(null);
    expect(
      descriptiveEvaluation(goodChecks, { ...passingJudgment, passed: null, error: 'down' }).reward,
    ).toBe(null);
    expect(descriptiveEvaluation(goodChecks, passingJudgment).reward).toBe(1);
  });

  it('keptForSft re-checks the record itself: a forged passing verdict on a bad trajectory stays out', () => {
    const base = {
      id: 'x',
      run: 'r',
      task_id: 't',
      task_index: 0,
      domain: 'd',
      trial: 0,
      attempt: 0,
      seed: 1,
      agent: 'openai:a',
      user: 'openai:u',
      settings: { semantics: 'fixed', text: 'cove', guidelines: 'cove-1' },
      db_sha256: 'h',
      tools,
      termination_reason: 'user_stop',
      usage: { prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 },
      timing_ms: 0,
      cove_version: '0',
      leaks: 0,
      invalid_tool_arguments: 0,
      unknown_tool_calls: 0,
      benchmark_data: false,
    } as const;
    // every recorded field says "passed", but the trajectory calls a tool the agent did not have
    const forged = {
      evaluator: 'rubric_judge',
      reward: 1,
      report: {
        descriptive: true,
        checks: goodChecks,
        judge: passingJudgment,
        passed: true,
        reason: 'passed',
      },
    };
    const bad = {
      ...base,
      messages: [call('c1', 'nope', '{}')],
      evaluation: forged,
    } as unknown as TrajectoryRecord;
    const good = {
      ...base,
      messages: [call('c1', 'get_track', '{"track_id": 1}')],
      evaluation: forged,
    } as unknown as TrajectoryRecord;
    expect(keptForSft(good)).toBe(true);
    expect(keptForSft(bad)).toBe(false);
    expect(keptForSft({ ...good, termination_reason: 'max_steps' } as TrajectoryRecord)).toBe(false);
    const unjudged = { ...forged, report: { ...forged.report, judge: null } };
    expect(keptForSft({ ...good, evaluation: unjudged } as unknown as TrajectoryRecord)).toBe(false);
  });
});
