import { defineConfig } from 'vitest/config';

/** Scale tests (`npx vitest run --config vitest.scale.config.ts`): outside `npm test`'s time budget. */
export default defineConfig({
  test: {
    include: ['test/scale/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
