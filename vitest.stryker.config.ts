import { defineConfig } from 'vitest/config';

/** The tests `npm run mutate` runs against each mutant: the fast in-process ones, so ~2,200 mutants finish in about half an hour on 2 cores. */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/codec/**/*.test.ts',
      'test/integration/confirm.test.ts',
      'test/integration/limits.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
