import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script shared with `npm run update-golden`
import { goldenHashes } from '../../scripts/golden-run.mjs';

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/golden-generate.json', import.meta.url), 'utf8'),
) as {
  command: string[];
  sha256: Record<string, string>;
};

describe('regression golden (test/fixtures/golden-generate.json)', () => {
  it(`${fixture.command.join(' ')} writes the recorded db.json, tasks.json and sft.jsonl`, () => {
    // a difference here means the default data changed: if that was intended, run `npm run update-golden`
    // and say why in the commit
    expect((goldenHashes as () => Record<string, string>)()).toEqual(fixture.sha256);
  });
});
