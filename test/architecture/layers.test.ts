import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const RULES = require('../../.dependency-cruiser.cjs') as { forbidden: IForbiddenRuleType[] };

async function violations(baseDir: string, paths: string[]): Promise<string[]> {
  const result = await cruise(paths, {
    baseDir,
    ruleSet: { forbidden: RULES.forbidden },
    validate: true,
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  });
  if (typeof result.output === 'string') throw new Error('expected a cruise result object');
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

describe('the import graph (docs/architecture.md)', () => {
  const fixtures = mkdtempSync(join(tmpdir(), 'chain-mcp-layers-'));
  afterAll(() => rmSync(fixtures, { recursive: true, force: true }));
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(fixtures, path)), { recursive: true });
    writeFileSync(join(fixtures, path), text);
  };

  it('has no circle, no upward arrow, and no product import of developer tooling or the simulator', async () => {
    expect(await violations(process.cwd(), ['src', 'tools'])).toEqual([]);
  });

  it('flags an upward import, a circle, tooling imported by the product and the simulator reached from elsewhere', async () => {
    file('src/codec/leaf.ts', "import { run } from '../registry/pipe.js';\nexport const leaf = run;\n");
    file('src/registry/pipe.ts', "export const run = 1;\n");
    file('src/spend/a.ts', "import { b } from './b.js';\nexport const a = b;\n");
    file('src/spend/b.ts', "import { a } from './a.js';\nexport const b = a;\n");
    file('src/server.ts', "import { bench } from '../tools/bench.js';\nimport { sim } from './devnet/sim.js';\nexport const s = [bench, sim];\n");
    file('tools/bench.ts', 'export const bench = 1;\n');
    file('src/devnet/sim.ts', "import { run } from '../registry/pipe.js';\nexport const sim = run;\n");
    const found = await violations(fixtures, ['src', 'tools']);
    expect(found).toEqual(
      expect.arrayContaining([
        'no-upward-from-base: src/codec/leaf.ts -> src/registry/pipe.ts',
        'no-circular: src/spend/a.ts -> src/spend/b.ts',
        'product-never-imports-tools: src/server.ts -> tools/bench.ts',
        'simulator-only-from-main: src/server.ts -> src/devnet/sim.ts',
        'simulator-stands-alone: src/devnet/sim.ts -> src/registry/pipe.ts',
      ]),
    );
  });
});
