// `npm run ops`: which ids of ../shared/spec/operations.tsv the catalogue implements, and the count.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATIONS } from '../engine/catalogue.js';

const spec = join(__dirname, '..', '..', 'shared', 'spec', 'operations.tsv');
const have = new Set<string>(OPERATIONS.map((o) => o.id));
if (!existsSync(spec)) {
  console.log(`operations.tsv not found at ${spec}; the catalogue has ${have.size} operations`);
  process.exit(0);
}
const ids = readFileSync(spec, 'utf8')
  .split('\n')
  .slice(1)
  .map((l) => l.split('\t')[0])
  .filter(Boolean);
let n = 0;
for (const id of ids) {
  const ok = have.has(id);
  if (ok) n++;
  console.log(`${ok ? '[x]' : '[ ]'} ${id}`);
}
const extra = [...have].filter((id) => !ids.includes(id));
console.log(
  `\n${n} of ${ids.length} interface operations implemented; ${extra.length} desktop extensions (${extra.join(', ')})`,
);
