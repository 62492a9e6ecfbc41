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
