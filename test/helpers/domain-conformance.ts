import { describe, expect, it } from 'vitest';
import { pyJsonDumps } from '../../src/core/py-json.js';
import { parsePyJson } from '../../src/core/py-json-parse.js';
import type { PyValue } from '../../src/core/py-value.js';
import { type Domain, sandboxSize } from '../../src/domains/domain.js';
import { baseFromValue } from '../../src/domains/load-db.js';
import type { EnvironmentBase } from '../../src/env/environment-base.js';
import { coveToolSchemas } from '../../src/env/openai-tools.js';
import { stateFileText } from '../../src/env/state-file.js';
import { runTaskEpisode } from '../../src/run/episode-runner.js';
import { scriptedRoles } from '../../src/run/roles.js';
import type { CoveTask, Difficulty } from '../../src/tasks/cove-task.js';
import { type SynthesisOptions, synthesizeTask } from '../../src/tasks/sampler.js';

/** What the conformance suite needs besides the domain: how to get a base, and how many tasks to try. */
export interface ConformanceSubject {
  readonly domain: Domain;
  /** A fresh base of the domain (a small sandbox, a test file, …); closed by the suite. */
  readonly makeBase: () => EnvironmentBase;
  /** Oracle episodes to run. @defaultValue 40 */
  readonly episodes?: number;
  /** Difficulty of the synthesized tasks (a small domain may not support k = 6). @defaultValue 'mixed' */
  readonly difficulty?: Difficulty | 'mixed';
}

/** Argument values that no tool expects: each tool must answer them with a tool result, never an exception. */
const ODD_VALUES: PyValue[] = [null, 7n, 2.5, '', 'no such id', true, [], ['x'], new Map([['a', 1n]])];

function synthesisOptions(
  domain: Domain,
  seed: number,
  difficulty: Difficulty | 'mixed' = 'mixed',
): SynthesisOptions {
  return {
    domain: domain.name,
    seed,
    difficulty,
    fuzz: 2,
    semantics: 'parity',
    db: { path: 'test', canonical_sha256: 'test', benchmark: false },
    coveVersion: 'conformance',
  };
}

/**
 * The contract every domain keeps (issue "open the engine", item 6): tools never throw past the dispatcher,
 * forks are isolated, dumps round-trip (domains that can load their own dump), one seed gives the same bytes, and
 * oracle episodes verify with S = 1 and a state match. Each check runs only where the domain has the capability
 * it needs; the suite names the ones it skipped.
 */
export function domainConformance(subject: ConformanceSubject): void {
  const { domain } = subject;
  describe(`domain conformance: ${domain.name}`, () => {
    it('tools never throw: odd arguments, missing ones, unknown tools all give tool results', () => {
      const base = subject.makeBase();
      const episode = base.fork();
      try {
        let results = 0;
        for (const tool of domain.tools) {
          const calls: Map<string, PyValue>[] = [new Map(), new Map([['unexpected', 1n]])];
          for (const value of ODD_VALUES) calls.push(new Map(tool.params.map((p) => [p.name, value])));
          for (const args of calls) {
            const r = episode.call(tool.name, args);
            expect(typeof r.content).toBe('string');
            expect(typeof r.error).toBe('boolean');
            results++;
          }
        }
        const unknown = episode.call('no_such_tool', new Map());
        expect(unknown).toMatchObject({ error: true, content: "Error: Tool 'no_such_tool' not found." });
        expect(results).toBe(domain.tools.length * (2 + ODD_VALUES.length));
        expect(episode.stats.internalErrors).toBe(0);
      } finally {
        episode.close();
        base.close();
      }
    });

    it('every tool has an OpenAI schema with its parameters', () => {
      const schemas = coveToolSchemas(domain);
      expect(schemas.map((s) => s.function.name)).toEqual(domain.tools.map((t) => t.name));
    });

    it.runIf(domain.synthesis !== undefined)(
      'forks are isolated: one fork’s writes are invisible to another and to the base',
      () => {
        const base = subject.makeBase();
        const synthesis = domain.synthesis as NonNullable<Domain['synthesis']>;
        const task = synthesizeTask(synthesis, base, synthesisOptions(domain, 11, subject.difficulty), 0);
        const before = base.hashes();
        const a = base.fork();
        const b = base.fork();
        try {
          for (const action of task.evaluation_criteria.actions) {
            expect(a.call(action.name, parsePyJson(JSON.stringify(action.arguments))).error).toBe(false);
          }
          expect(a.changedEntities().length).toBeGreaterThan(0);
          expect(a.hashes()).not.toEqual(before);
          expect(b.changedEntities()).toEqual([]);
          expect(b.hashes()).toEqual(before);
        } finally {
          a.close();
          b.close();
        }
        const c = base.fork();
        expect(c.hashes()).toEqual(before);
        c.close();
        base.close();
      },
    );

    it.runIf(domain.tau2 !== undefined && domain.synthesis !== undefined)(
      'dumps round-trip: a changed state written as db.json loads back with the same hashes',
      () => {
        const base = subject.makeBase();
        const synthesis = domain.synthesis as NonNullable<Domain['synthesis']>;
        const task = synthesizeTask(synthesis, base, synthesisOptions(domain, 12, subject.difficulty), 0);
        const episode = base.fork();
        for (const action of task.evaluation_criteria.actions) {
          episode.call(action.name, parsePyJson(JSON.stringify(action.arguments)));
        }
        const text = stateFileText(domain, episode.sql, 'file');
        const reloaded = baseFromValue(domain, parsePyJson(text), 'round-trip');
        expect(reloaded.hashes).toEqual(episode.hashes());
        episode.close();
        reloaded.base.close();
        base.close();
      },
    );

    it.runIf(domain.sandbox !== undefined)(
      'one sandbox seed gives the same bytes, another seed others',
      () => {
        const sandbox = domain.sandbox as NonNullable<Domain['sandbox']>;
        const size = sandboxSize(sandbox);
        const one = pyJsonDumps(sandbox.generate(5, size), { indent: 4 });
        expect(pyJsonDumps(sandbox.generate(5, size), { indent: 4 })).toBe(one);
        expect(pyJsonDumps(sandbox.generate(6, size), { indent: 4 })).not.toBe(one);
      },
    );

    it.runIf(domain.synthesis !== undefined)('one synthesis seed gives the same tasks', () => {
      const synthesis = domain.synthesis as NonNullable<Domain['synthesis']>;
      const make = () => {
        const base = subject.makeBase();
        const tasks = [0, 1, 2, 3, 4].map((i) =>
          synthesizeTask(synthesis, base, synthesisOptions(domain, 13, subject.difficulty), i),
        );
        base.close();
        return JSON.stringify(tasks);
      };
      expect(make()).toBe(make());
    });

    it.runIf(domain.synthesis !== undefined && domain.simulation !== undefined)(
      'oracle episodes verify: S = 1 and a state match on every task',
      async () => {
        const base = subject.makeBase();
        const synthesis = domain.synthesis as NonNullable<Domain['synthesis']>;
        const n = subject.episodes ?? 40;
        const tasks: CoveTask[] = [];
        for (let i = 0; i < n; i++)
          tasks.push(synthesizeTask(synthesis, base, synthesisOptions(domain, 14, subject.difficulty), i));
        const context = {
          run: 'conformance',
          domain,
          base,
          dbSha256: base.hashes().canonical_sha256,
          benchmarkData: false,
          seed: 14,
          settings: { semantics: 'parity' as const, text: 'cove' as const, guidelines: 'scripted' },
          agentContext: { systemPrompt: 'conformance', tools: coveToolSchemas(domain) },
          roles: scriptedRoles(domain),
          limits: {},
          coveVersion: 'conformance',
        };
        const failed: string[] = [];
        for (const task of tasks) {
          const r = await runTaskEpisode(context, { task, index: task.cove.index }, 0, 0);
          if (!(r.verification?.score === 1 && r.verification.stateMatch && r.evaluation?.reward === 1)) {
            failed.push(`${task.id}: ${r.termination_reason} ${JSON.stringify(r.verification?.constraints)}`);
          }
        }
        expect(failed).toEqual([]);
        base.close();
      },
      120_000,
    );
  });
}
