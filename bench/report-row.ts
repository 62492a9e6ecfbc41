// One row of the table `npm run bench` prints at the end: each bench reports its measures through
// `reportRow`, and bench/run.ts collects the rows from every bench's output into one table with the
// goal beside each figure.

/** A measure, its value as printed, its goal as printed, and whether the goal is met (null: reported only). */
export interface BenchRow {
  measure: string;
  value: string;
  goal: string;
  pass: boolean | null;
}

/** The prefix bench/run.ts looks for in a bench's output. */
export const rowPrefix = '::bench-row::';

export function reportRow(row: BenchRow): void {
  console.log(`${rowPrefix}${JSON.stringify(row)}`);
}

/** The rows in a bench's output, in order. */
export function rowsIn(output: string): BenchRow[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith(rowPrefix))
    .map((line) => JSON.parse(line.slice(rowPrefix.length)) as BenchRow);
}

/**
 * Prints one chain's deposit → escrow_funded latencies and reports their median and max against
 * `goalMs` (measured from the block or slot that made the deposits deep enough). False when either
 * misses the goal.
 */
export function reportFundingLatencies(options: {
  chain: string;
  title: string;
  latencies: number[];
  goalMs: number;
  after: 'block' | 'slot';
}): boolean {
  const { chain, latencies, goalMs, after } = options;
  const sorted = [...latencies].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const max = sorted.at(-1) ?? 0;
  console.log(`${options.title}:`);
  console.log(`  each   ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  console.log(`  median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms after the ${after}\n`);
  let met = true;
  for (const [name, value] of [
    ['median', median],
    ['max', max],
  ] as const) {
    const pass = value <= goalMs;
    reportRow({
      measure: `${chain} deposit deep enough → escrow_funded, ${name}`,
      value: `${value.toFixed(0)} ms`,
      goal: `≤ ${goalMs} ms after the ${after}`,
      pass,
    });
    if (!pass) {
      console.error(`FAIL: the ${name} latency ${value.toFixed(0)} ms is over ${goalMs} ms`);
      met = false;
    }
  }
  return met;
}
