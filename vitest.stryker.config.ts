import { defineConfig } from 'vitest/config';

/** The tests `npm run mutate` runs against each mutant: in-process ones only (see stryker.config.json). */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/codec/**/*.test.ts',
      'test/client/http.test.ts',
      'test/contract/**/*.test.ts',
      'test/assistant/**/*.test.ts',
      'test/integration/{admin,confirm,evm,gating,http,info,limits,platform,spend,xvm}.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
