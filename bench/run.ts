// `npm run bench [name…]`: runs every bench/*.bench.ts (or those whose names contain a given word),
// one after another in its own process, and fails if any of them fails. Slow benches (the 10-minute
// soak) run only when named: `npm run bench -- soak`.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchRow, rowPrefix, rowsIn } from './report-row.js';

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
const rows: { file: string; row: BenchRow }[] = [];
for (const file of files) {
  console.log(`\n▶ ${file}`);
  const { status, output } = await runBench(join(directory, file));
  if (status !== 0) failed.push(file);
  for (const row of rowsIn(output)) {
    rows.push({ file, row });
    if (row.pass === false && status === 0) failed.push(`${file} (${row.measure})`);
  }
}

if (rows.length > 0) {
  const widths = {
    measure: Math.max(7, ...rows.map(({ row }) => row.measure.length)),
    value: Math.max(5, ...rows.map(({ row }) => row.value.length)),
    goal: Math.max(4, ...rows.map(({ row }) => row.goal.length)),
  };
  const line = (measure: string, value: string, goal: string, verdict: string) =>
    `${measure.padEnd(widths.measure)}  ${value.padStart(widths.value)}  ${goal.padEnd(widths.goal)}  ${verdict}`;
  console.log(`\n${line('measure', 'value', 'goal', '')}`);
  for (const { row } of rows) {
    console.log(
      line(row.measure, row.value, row.goal, row.pass === null ? 'reported' : row.pass ? 'pass' : 'FAIL'),
    );
  }
}

if (failed.length > 0) {
  console.error(`\n${failed.length} failed: ${failed.join(', ')}`);
  process.exit(1);
}

/** Runs one bench in its own process, echoing its output (without the row lines) as it comes. */
function runBench(path: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const text of lines) if (!text.startsWith(rowPrefix)) process.stdout.write(`${text}\n`);
    });
    child.on('error', reject);
    child.on('close', (status) => {
      if (pending && !pending.startsWith(rowPrefix)) process.stdout.write(pending);
      resolve({ status, output });
    });
  });
}
