// `npm run bench [name…]`: runs every bench/*.bench.ts (or those whose names contain a given word),
// one after another in its own process, and fails if any of them fails. Slow benches (the 10-minute
// soak) run only when named: `npm run bench -- soak`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const directory = import.meta.dirname;
const filters = process.argv.slice(2);
const slowBenches = new Set(['soak.bench.ts']);
const files = readdirSync(directory)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) =>
    filters.length === 0 ? !slowBenches.has(file) : filters.some((filter) => file.includes(filter)),
  )
  .sort();

if (files.length === 0) {
  console.error(`No bench file matches ${filters.join(', ')}`);
  process.exit(1);
}

const failed: string[] = [];
for (const file of files) {
  console.log(`\n▶ ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(directory, file)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed.push(file);
}

if (failed.length > 0) {
  console.error(`\n${failed.length} of ${files.length} benches failed: ${failed.join(', ')}`);
  process.exit(1);
}
