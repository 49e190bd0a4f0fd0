#!/usr/bin/env node
import { enableCompileCache } from './compile-cache.js';

/**
 * The bundle's entry (`dist/chain-mcp.js`, the package's bin): turns on Node's compile cache
 * before the server's modules are read, which a static import of them would not allow (they load
 * before any line of the module that imports them runs), then starts main.ts.
 */
enableCompileCache();
// Not awaited: the entry's own evaluation stays synchronous (a top-level await costs every start a turn).
import('./main.js').catch((err: unknown) => {
  process.stderr.write(`chain-mcp: failed to start: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(2);
});
