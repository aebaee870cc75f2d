import { defineConfig } from 'vitest/config';

// `npm run test:scale`: the large runs kept out of `npm test` (kill/soak tests, hundreds of tasks).
export default defineConfig({
  test: {
    include: ['test/scale/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: 'forks',
    env: { COVE_NO_CACHE: '1' },
    fileParallelism: false,
  },
});
