import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant: every test that drives the server in this
 * process (unit, codec, the per-tool contract, fuzz, the in-memory integration and assistant
 * suites). Left out: suites whose work happens in another process or a browser (stdio clients,
 * faults through a proxy, load, packaging, views, the approval card), since a mutant in src/ can
 * only be seen by code running here; they still run in `npm test`.
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/codec/**/*.test.ts',
      'test/contract/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
      'test/assistant/**/*.test.ts',
      'test/integration/{admin,approval,confirm,dialects,dynamic,gating,hostile,indexer,info,limits,platform,real-shapes,spend,xvm}.test.ts',
    ],
    globalSetup: ['test/helpers/browser-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
