import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutate` runs against each static mutant (see recheckStatic in tools/mutate.ts):
 * with the mutant switched on before import, every test here that imports the mutated file runs,
 * so the list is the fast suites that exercise each catalogue entry and constant: the per-tool
 * contract suite (every tool's request in both dialects, previews and results), unit and codec tests,
 * and the MCP HTTP server's loopback suites (http-server.ts is built in their beforeAll, so its
 * import-time mutants are static too); for the `camino` group, the assistant suites and Camino's own
 * reads, where its tools' entries (run, summarize, limits, schemas: objects built at import) are called;
 * for the `state` group, the store contract.
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/codec/**/*.test.ts',
      'test/contract/**/*.test.ts',
      'test/integration/{http,http-edges,http-guard}.test.ts',
      'test/assistant/**/*.test.ts',
      'test/integration/{camino,camino-summaries}.test.ts',
      // The `state` group's constants built at import (the SQL schemas, the NOTIFY channel, DAY_MS):
      // the store contract opens every backend with them (memory, SQLite, a real PostgreSQL).
      'test/state/contract.test.ts',
    ],
    // See vitest.stryker.config.ts: a freshness check of generated code that fails in Stryker's sandbox.
    exclude: ['test/unit/views-app-class.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
