/** `npm run readme`: rewrites the generated blocks of the docs (the tool table, the settings, the tool list sizes). */
import { readFileSync, writeFileSync } from 'node:fs';
import { CATALOGUE } from '../src/catalogue/index.js';
import { renderExtras, renderFlags, renderSettings, renderSizes, SETTINGS_DOC, SIZES_DOC, TOOLS_DOC, withBlock } from './docs-blocks.js';
import { TOOL_TABLE_DOC, withToolTable } from './readme-table.js';

const path = new URL(`../../${TOOL_TABLE_DOC}`, import.meta.url);
writeFileSync(path, withToolTable(readFileSync(path, 'utf8'), CATALOGUE));
console.log(`${TOOL_TABLE_DOC}: ${CATALOGUE.length} tools`);

for (const [doc, name, body] of [
  [SETTINGS_DOC, 'settings', renderSettings()],
  [SETTINGS_DOC, 'flags', renderFlags()],
  [TOOLS_DOC, 'extras', renderExtras()],
  [SIZES_DOC, 'sizes', renderSizes()],
] as const) {
  const file = new URL(`../../${doc}`, import.meta.url);
  writeFileSync(file, withBlock(readFileSync(file, 'utf8'), name, body, doc));
  console.log(`${doc}: ${name}`);
}
