/** `npm run readme`: rewrites the README tool table from the catalogue. */
import { readFileSync, writeFileSync } from 'node:fs';
import { CATALOGUE } from '../src/catalogue/index.js';
import { withToolTable } from './readme-table.js';

const path = new URL('../../README.md', import.meta.url);
writeFileSync(path, withToolTable(readFileSync(path, 'utf8'), CATALOGUE));
console.log(`README.md: ${CATALOGUE.length} tools`);
