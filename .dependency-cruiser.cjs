/**
 * The import rules of chain-mcp (docs/architecture.md): no circles, the product never imports
 * developer tooling, the simulator is reached only by main.ts, and arrows point down the layers.
 */
const LAYERS = [
  ['entry', '^src/main\\.ts$'],
  ['protocol', '^src/(server|http-server|http-session|http-bridge|doctor|stdio-guard|input-required)\\.ts$|^src/(assistant|views)/'],
  ['auth', '^src/auth/'],
  ['pipeline', '^src/registry/'],
  ['services', '^src/services(-core)?\\.ts$'],
  ['catalogue', '^src/catalogue/'],
  ['domain', '^src/(spend|local|approval|context|summarize)/'],
  ['tx-builders', '^src/tx-builders/'],
  ['signer', '^src/signer/'],
  ['state', '^src/state/|^src/confirm\\.ts$'],
  ['config', '^src/(config|settings|help)\\.ts$'],
  ['base', '^src/(core|transport|codec)/|^src/(wire|errors|log|lazy-log|redact|version)\\.ts$'],
];

/** One rule per layer: nothing in it imports a layer above it. */
const upward = LAYERS.slice(1).map(([name, path], i) => ({
  name: `no-upward-from-${name}`,
  comment: `${name} must not import ${LAYERS.slice(0, i + 1).map(([n]) => n).join(', ')}`,
  severity: 'error',
  from: { path },
  to: { path: LAYERS.slice(0, i + 1).map(([, p]) => `(${p})`).join('|') },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'product-never-imports-tools', severity: 'error', from: { path: '^src/' }, to: { path: '^tools/' } },
    {
      name: 'simulator-only-from-main',
      comment: 'The product reaches the simulator through one dynamic import in main.ts (--devnet).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(main\\.ts|devnet/)' },
      to: { path: '^src/devnet/' },
    },
    {
      name: 'simulator-stands-alone',
      comment: 'The simulator shares only the pure codecs with the product, so it behaves like a node, not like our client.',
      severity: 'error',
      from: { path: '^src/devnet/' },
      to: { path: '^src/', pathNot: '^src/(devnet|codec)/' },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
