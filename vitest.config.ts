import { defineConfig } from 'vitest/config';

// `npm test`: the TypeScript sources in-process; tests that spawn the CLI run the dist/ that the global setup
// builds once from those same sources. Timeouts are generous so that the suite holds on a busy machine; large runs
// (hundreds of tasks, soak and kill tests) live in test/scale and run with `npm run test:scale`.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/scale/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // every test exercises the real db.json import (test/domains/base-cache.test.ts tests the cache itself)
    env: { COVE_NO_CACHE: '1' },
  },
});
