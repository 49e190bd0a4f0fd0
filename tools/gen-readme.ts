/** `npm run readme`: rewrites the tool table in docs/tools.md from the catalogue. */
import { readFileSync, writeFileSync } from 'node:fs';
import { CATALOGUE } from '../src/catalogue/index.js';
import { TOOL_TABLE_DOC, withToolTable } from './readme-table.js';

const path = new URL(`../../${TOOL_TABLE_DOC}`, import.meta.url);
writeFileSync(path, withToolTable(readFileSync(path, 'utf8'), CATALOGUE));
console.log(`${TOOL_TABLE_DOC}: ${CATALOGUE.length} tools`);
