import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each mutant: every test that drives the server in this
 * process (unit, codec, the per-tool contract, fuzz, the eval questions, every in-memory integration
 * and assistant suite, the approval page, card and passkey, the MCP HTTP server and client on
 * loopback). Left out: suites whose work happens in another process (stdio clients, the doctor,
 * start-mistake and setup-mistake runs of the bin, load, packaging, anvil), since a mutant in src/ can only be seen
 * by code running here, and the views' browser pages and the fault-proxy runs (slow, and they
 * repeat what the per-tool suites check); all of them still run in `npm test`. The approval suites' headless-browser tests stay in (the page they drive is served
 * here): they need chromium, as in `npm test`. The SQLite state suites run too: `npm run mutate`
 * runs Stryker on a Node with node:sqlite (tools/mutate.ts). (A testNamePattern cannot drop them: Stryker's
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
      'test/eval/**/*.test.ts',
      'test/client/http.test.ts',
      'test/integration/*.test.ts',
      // The state store contract (issue 44, group `state`): memory, SQLite and a real PostgreSQL in this process.
      'test/state/contract.test.ts',
    ],
    // A freshness check of generated code (src/core/app-class.ts against a rebuild of the installed
    // ext-apps): no mutated file reaches it, and inside Stryker's sandbox, where node_modules is a
    // link, esbuild resolves the bundle differently, so it would fail the initial run for nothing.
    exclude: [
      'test/unit/views-app-class.test.ts',
      // Their work happens in another process (the built bin, anvil) or in a browser page of the views.
      'test/integration/{doctor,evm,start-mistakes,setup-mistakes,stdio,views,key-cli,signer-unlock}.test.ts',
    ],
    // One module graph for all the test files of one mutant's run: Stryker's vitest runner starts a
    // new worker for every run, so nothing is shared between mutants, and a mutant covered by tests
    // in ten files pays for importing the server once instead of ten times (the initial run's
    // overhead fell from 52 s to 17 s). The static re-check (vitest.static.config.ts) keeps isolation.
    isolate: false,
    globalSetup: ['test/helpers/browser-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
