import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant: every test that drives the server in this
 * process (unit, codec, the per-tool contract, fuzz, the in-memory integration and assistant
 * suites, the approval page and card, the MCP HTTP server on loopback). Left out: suites whose
 * work happens in another process (stdio clients, faults through a proxy, load, packaging, views,
 * anvil), since a mutant in src/ can only be seen by code running here; they still run in
 * `npm test`. The approval suites' headless-browser tests stay in (the page they drive is served
 * here): they need chromium, as in `npm test`. (A testNamePattern cannot drop them: Stryker's
 * vitest runner resets it on every run.)
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/codec/**/*.test.ts',
      'test/contract/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
      'test/assistant/**/*.test.ts',
      'test/integration/{admin,approval,approval-card,approval-edges,confirm,dialects,dynamic,gating,hostile,http,indexer,info,limits,platform,real-shapes,spend,wire-names,xvm}.test.ts',
    ],
    // A freshness check of generated code (src/core/app-class.ts against a rebuild of the installed
    // ext-apps): no mutated file reaches it, and inside Stryker's sandbox, where node_modules is a
    // link, esbuild resolves the bundle differently, so it would fail the initial run for nothing.
    exclude: ['test/unit/views-app-class.test.ts'],
    globalSetup: ['test/helpers/browser-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
