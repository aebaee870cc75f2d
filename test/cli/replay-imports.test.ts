import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

/**
 * The modules a file loads before it runs: its static value imports (not `import type`, not `await import(…)`),
 * followed through cove's sources; packages by name.
 */
function staticImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [join(REPO, entry)];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    const key = relative(REPO, file);
    if (seen.has(key)) continue;
    seen.add(key);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm)) {
      const spec = m[1] as string;
      if (!spec.startsWith('.')) seen.add(`package:${spec}`);
      else queue.push(join(dirname(file), spec.replace(/\.js$/, '.ts')));
    }
  }
  return seen;
}

describe('what `cove replay` loads before it knows it needs more', () => {
  it('loads neither zod nor any whole domain, synthesis or scripted roles, nor every domain at once', () => {
    for (const entry of [
      'src/cli/commands/replay.ts',
      'src/domains/retail/environment.ts',
      'src/domains/airline/environment.ts',
    ]) {
      const loaded = [...staticImports(entry)];
      expect(loaded.length, entry).toBeGreaterThan(1);
      const unwanted = loaded.filter(
        (m) =>
          m.startsWith('package:zod') ||
          /domains\/(retail|airline)\/(index|data-model|import-db)\.ts$/.test(m) ||
          /domains\/(registry|infer-domain)\.ts$/.test(m) ||
          /\/(synthesis|sim|sandbox)\//.test(m) ||
          m.endsWith('tasks/tau2-task.ts'),
      );
      expect(unwanted, entry).toEqual([]);
    }
    // the replay command reaches the retail tools only through a dynamic import
    expect([...staticImports('src/cli/commands/replay.ts')].some((m) => m.includes('domains/retail'))).toBe(
      false,
    );
  });
});
