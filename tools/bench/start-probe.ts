/**
 * Where a cold start goes, measured inside one fresh process of the tsc output (run by
 * `npm run bench`): Node's own start, loading the modules main.ts needs before it can answer
 * `initialize`, building the server, and (after initialize, off the critical path) loading the
 * tools/call pipeline and the catalogue, and computing every tool's listed JSON Schema. Prints one JSON line.
 */
import { performance } from 'node:perf_hooks';

const node = performance.now();
const [{ loadConfig }, { createLogger }, { buildServer }] = await Promise.all([import('../../src/config.js'), import('../../src/log.js'), import('../../src/server.js')]);
await import('@modelcontextprotocol/server/stdio');
const modules = performance.now();
const config = loadConfig({ CHAIN_MCP_LOG_LEVEL: 'silent' });
const built = buildServer({ config, log: createLogger('silent', []) });
const build = performance.now();
await import('../../src/registry/execute.js');
const callPath = performance.now();
const { CATALOGUE } = await import('../../src/catalogue/index.js');
const catalogue = performance.now();
const { toolListing } = await import('../../src/registry/listing.js');
for (const tool of CATALOGUE) toolListing(tool);
const schemas = performance.now();
await built.services.close();
process.stdout.write(
  `${JSON.stringify({ node, modules: modules - node, build: build - modules, callPath: callPath - build, catalogue: catalogue - callPath, schemas: schemas - catalogue, tools: CATALOGUE.length })}\n`,
);
process.exit(0);
