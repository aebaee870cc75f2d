import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonFile } from '../../src/domains/load-db.js';
import { replayCalls } from '../../src/env/replay.js';
import { parseTau2Tasks } from '../../src/tasks/tau2-task.js';
import { AIRLINE_LEGACY_TASKS, AIRLINE_TASKS, tau2AirlineBase } from '../helpers/airline-base.js';
import { GOLDEN } from '../helpers/paths.js';

/** Every gold action of the airline train split replayed on τ²'s DB, against τ²'s own outputs and hashes. */

interface GoldenEntry {
  db_hash: string;
  canonical_sha256: string;
  changed_db: boolean;
  actions: string[];
  outputs: string[];
  errors: boolean[];
}

type GoldenFile = Record<string, GoldenEntry> & {
  _initial_db_hash: string;
  _initial_canonical_sha256: string;
};

const variants = [
  { name: 'head', tasks: AIRLINE_TASKS, golden: 'airline.head.train.json' },
  { name: 'legacy v0.1.0', tasks: AIRLINE_LEGACY_TASKS, golden: 'airline.legacy_v0.1.0.train.json' },
];

describe.each(variants)('airline gold replay parity ($name)', ({ tasks, golden }) => {
  const goldenFile = JSON.parse(readFileSync(join(GOLDEN, golden), 'utf8')) as GoldenFile;
  const loaded = parseTau2Tasks(readJsonFile(tasks), tasks);
  const ids = Object.keys(goldenFile).filter((k) => !k.startsWith('_'));

  it('loads the pristine DB with τ²’s initial hashes', { timeout: 60_000 }, () => {
    const { hashes } = tau2AirlineBase();
    expect(hashes.db_hash).toBe(goldenFile._initial_db_hash);
    expect(hashes.canonical_sha256).toBe(goldenFile._initial_canonical_sha256);
  });

  it('covers every golden task', () => {
    expect(ids.length).toBe(30);
  });

  it.each(ids)('task %s: outputs, error flags and both hashes equal τ²’s', (id) => {
    const expected = goldenFile[id] as GoldenEntry;
    const task = loaded.find((t) => t.task.id === id);
    expect(task).toBeDefined();
    const actions = task?.task.evaluation_criteria?.actions ?? [];
    const { episode, calls } = replayCalls(
      tau2AirlineBase().base,
      actions.map((a) => ({ name: a.name, arguments: a.arguments })),
    );
    try {
      expect(calls.map((c) => c.name)).toEqual(expected.actions);
      calls.forEach((c, i) => {
        expect({ i, content: c.content }).toEqual({ i, content: expected.outputs[i] });
      });
      expect(calls.map((c) => c.error)).toEqual(expected.errors);
      const hashes = episode.hashes();
      expect(hashes.db_hash).toBe(expected.db_hash);
      expect(hashes.canonical_sha256).toBe(expected.canonical_sha256);
      expect(hashes.db_hash !== goldenFile._initial_db_hash).toBe(expected.changed_db);
      expect(episode.stats.internalErrors).toBe(0);
    } finally {
      episode.close();
    }
  });
});
