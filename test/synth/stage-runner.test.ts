import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModel, EndpointPool } from '../../src/llm/chat-model.js';
import { roleConfigSchema } from '../../src/llm/config.js';
import { UsageMeter } from '../../src/llm/usage-meter.js';
import { createMockLlmApp, type MockScript } from '../../src/server/mock-llm/app.js';
import { type RunningServer, serveApp } from '../../src/server/serve.js';
import { contentId, StageRecordError } from '../../src/synth/records.js';
import { progressPathOf, runStage, summaryPathOf } from '../../src/synth/run-stage.js';
import type { Stage, StageRecord } from '../../src/synth/stage.js';

// A stage defined here, named `questions` so that cove mock-llm answers it by that role: each input record
// `{id, topic}` asks the model for `{"questions": [...]}` and yields one record per question.
interface Topic extends StageRecord {
  readonly topic: string;
}
interface Question extends StageRecord {
  readonly topic: string;
  readonly question: string;
}
const failOnce = new Set<string>();
/** Topics whose unit fails once after its model call (an endpoint that dies mid-unit, or a kill). */
const failAfterCall = new Set<string>();
const echo: Stage<Topic, Question> = {
  name: 'questions',
  description: 'test stage',
  input: z.strictObject({ id: z.string(), topic: z.string() }),
  output: z.strictObject({ id: z.string(), topic: z.string(), question: z.string().min(1) }),
  settings: z.strictObject({ json_retries: z.number().int().min(0).default(2) }),
  async run(unit, ctx) {
    const topic = unit.records[0] as Topic;
    if (failOnce.delete(topic.topic)) throw new Error(`endpoint down for ${topic.topic}`);
    const reply = await ctx.chatJson(
      [{ role: 'user', content: `Questions about ${topic.topic}` }],
      z.strictObject({ questions: z.array(z.string().min(1)).min(1) }),
    );
    if (failAfterCall.delete(topic.topic)) throw new Error(`stopped after the call for ${topic.topic}`);
    return reply.value.questions.map((q) => ({
      id: contentId('q', { topic: topic.topic, question: q }),
      topic: topic.topic,
      question: q,
    }));
  },
};

const SCRIPT: MockScript = {
  questions: [{ content: '{"questions": ["Who sang it?", "When?"]}' }],
  by_task: {
    // the n-th reply of a conversation is the n-th entry: a broken reply, then a fenced valid one
    'topic-b': {
      questions: [
        { content: 'Sure! {"questions": ["unclosed"' },
        { content: '```json\n{"questions": ["Which album?"]}\n```' },
      ],
    },
    // never valid: the unit fails after the retries
    'topic-d': { questions: [{ content: '{"questions": []}' }] },
  },
};

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  server = await serveApp(createMockLlmApp({ mode: 'script', script: SCRIPT }).app, { port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'cove-stage-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function model(): ChatModel {
  const config = roleConfigSchema.parse({
    model: 'openai:mock',
    base_url: `${server.url}/v1`,
    max_retries: 0,
  });
  // prices per million tokens: cost = (prompt * 2 + completion * 10) / 1e6
  const prices = { mock: { prompt_per_mtok: 2, completion_per_mtok: 10 } };
  return new ChatModel(
    'synth',
    config,
    { env: {}, prices, meter: new UsageMeter(), endpoints: new EndpointPool() },
    'questions',
  );
}

function writeInput(name: string, topics: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, topics.map((t) => JSON.stringify({ id: `topic-${t}`, topic: t })).join('\n'));
  return file;
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Question);

describe('runStage over cove mock-llm (script mode, real socket)', () => {
  it('retries invalid JSON, records a unit that stays invalid as failed, sums usage and cost', async () => {
    const input = writeInput('topics.jsonl', ['a', 'b', 'd']);
    const out = join(dir, 'q1.jsonl');
    const summary = await runStage({
      stage: echo,
      inputs: [input],
      out,
      settings: {},
      seed: 7,
      model: model(),
    });
    expect(lines(out).map((q) => [q.topic, q.question])).toEqual([
      ['a', 'Who sang it?'],
      ['a', 'When?'],
      ['b', 'Which album?'],
    ]);
    // a: 1 call; b: 2 calls (1 retry); d: 3 calls (2 retries, then failed)
    expect(summary.usage.calls).toBe(6);
    expect(summary.counts).toEqual({ failed_units: 1, json_failures: 1, json_retries: 3 });
    expect(summary.units).toEqual({ total: 3, done: 3, failed: 1 });
    expect(summary.records).toBe(3);
    expect(summary.usage.prompt_tokens).toBeGreaterThan(0);
    expect(summary.usage.cost_usd).toBeCloseTo(
      (summary.usage.prompt_tokens * 2 + summary.usage.completion_tokens * 10) / 1e6,
      12,
    );
    const onDisk = JSON.parse(readFileSync(summaryPathOf(out), 'utf8'));
    expect(onDisk.model).toEqual({
      name: 'openai:mock',
      base_url: `${server.url}/v1`,
      temperature: 0,
      seed: null,
      max_tokens: null,
    });
    expect(onDisk.usage).toEqual(summary.usage);
    expect(onDisk.notes[0]).toMatch(/stage questions, topic-d: .*questions: Too small/);
  });

  it('resumes after a failure and a torn write: nothing lost, nothing duplicated, same bytes', async () => {
    const input = writeInput('topics2.jsonl', ['a', 'b', 'c']);
    const clean = join(dir, 'clean.jsonl');
    await runStage({ stage: echo, inputs: [input], out: clean, settings: {}, seed: 7, model: model() });

    const out = join(dir, 'resumed.jsonl');
    failOnce.add('b');
    await expect(
      runStage({ stage: echo, inputs: [input], out, settings: {}, seed: 7, model: model(), concurrency: 1 }),
    ).rejects.toThrow('endpoint down for b');
    expect(lines(out).map((q) => q.topic)).toEqual(['a', 'a']);
    // a kill after a unit's records were written but before its progress line, and a torn line
    appendFileSync(out, `${JSON.stringify({ id: 'q-x', topic: 'b', question: 'half' })}\n{"id": "q-`);
    const summary = await runStage({
      stage: echo,
      inputs: [input],
      out,
      settings: {},
      seed: 7,
      model: model(),
    });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(clean, 'utf8'));
    expect(summary.units).toEqual({ total: 3, done: 3, failed: 0 });
    // a rerun of a finished stage calls no model and changes nothing
    const again = await runStage({
      stage: echo,
      inputs: [input],
      out,
      settings: {},
      seed: 7,
      model: model(),
    });
    expect(again.usage).toEqual(summary.usage);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(clean, 'utf8'));
    const progress = readFileSync(progressPathOf(out), 'utf8').trim().split('\n');
    expect(progress.filter((l) => l.includes('"unit"'))).toHaveLength(3);
  });

  it('counts the model calls of a unit that did not finish in usage, as interrupted_usage', async () => {
    const input = writeInput('topics5.jsonl', ['a', 'c']);
    const clean = await runStage({
      stage: echo,
      inputs: [input],
      out: join(dir, 'clean5.jsonl'),
      settings: {},
      seed: 7,
      model: model(),
    });
    expect(clean.usage.calls).toBe(2);
    expect(clean.interrupted_usage.calls).toBe(0);

    const out = join(dir, 'interrupted.jsonl');
    failAfterCall.add('c');
    await expect(
      runStage({ stage: echo, inputs: [input], out, settings: {}, seed: 7, model: model(), concurrency: 1 }),
    ).rejects.toThrow('stopped after the call for c');
    const stopped = JSON.parse(readFileSync(summaryPathOf(out), 'utf8'));
    expect(stopped.units.done).toBe(1);
    expect(stopped.usage.calls).toBe(2);
    expect(stopped.interrupted_usage.calls).toBe(1);

    const resumed = await runStage({
      stage: echo,
      inputs: [input],
      out,
      settings: {},
      seed: 7,
      model: model(),
    });
    // c was asked twice: once by the run that stopped, once by the resume; both are paid for
    expect(resumed.usage.calls).toBe(3);
    expect(resumed.interrupted_usage.calls).toBe(1);
    expect(resumed.usage.prompt_tokens).toBe(
      clean.usage.prompt_tokens + resumed.interrupted_usage.prompt_tokens,
    );
    expect(resumed.interrupted_usage.prompt_tokens).toBeGreaterThan(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'clean5.jsonl'), 'utf8'));
  });

  it('refuses an output made with another seed, and names stage, file, line and field of a bad record', async () => {
    const input = writeInput('topics3.jsonl', ['a']);
    const out = join(dir, 'q3.jsonl');
    await runStage({ stage: echo, inputs: [input], out, settings: {}, seed: 7, model: model() });
    await expect(
      runStage({ stage: echo, inputs: [input], out, settings: {}, seed: 8, model: model() }),
    ).rejects.toThrow(/other settings, seed or model/);

    const bad = join(dir, 'bad.jsonl');
    writeFileSync(
      bad,
      `${JSON.stringify({ id: 'topic-a', topic: 'a' })}\n\n${JSON.stringify({ id: 't', topic: 3 })}\n`,
    );
    const e = await runStage({
      stage: echo,
      inputs: [bad],
      out: join(dir, 'q4.jsonl'),
      settings: {},
      seed: 7,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StageRecordError);
    expect((e as Error).message).toBe(
      `${bad}: line 3 $.topic: expected string, got number (stage questions)`,
    );
  });
});
