import { defineConfig } from 'vitest/config';
import { sqlitePool } from './test/helpers/sqlite-pool.js';

/**
 * The tests that open a SQLite store in the test process or spawn the server on the test's own
 * Node: they run on a Node with node:sqlite (this one from 22.13; on Node 20 the registry's Node 24,
 * tools/sqlite-node.ts), so nothing is compiled for them. Everything else runs on this Node.
 */
export const SQLITE_TESTS = [
  'test/state/contract.test.ts',
  'test/state/sqlite-processes.test.ts',
  'test/integration/state-sqlite.test.ts',
  'test/integration/state-start.test.ts',
  'test/integration/local-signer-sqlite.test.ts',
  'test/integration/local-daily.test.ts',
  'test/integration/store-tamper.test.ts',
];

const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
};

export default defineConfig({
  test: {
    // Finds the browser (and unpacks the npm one) once, before the workers start.
    globalSetup: ['test/helpers/browser-setup.ts'],
    // Three on two cores: much of a test's time waits on another process (the bin, PostgreSQL,
    // Chromium) or a node timeout it provokes, not on the CPU (docs/benchmarks.md: 250 s with 2, 210 s with 3).
    maxWorkers: 3,
    projects: [
      { test: { ...shared, name: 'node', include: ['test/**/*.test.ts'], exclude: SQLITE_TESTS, pool: 'forks' } },
      { test: { ...shared, name: 'sqlite', include: SQLITE_TESTS, pool: sqlitePool } },
    ],
  },
});
