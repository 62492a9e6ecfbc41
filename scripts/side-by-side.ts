// Runs npm scripts at the same time, each line of their output prefixed with the script's name, and
// exits with the first non-zero exit code once all have ended (so one failing never hides another's
// output). `npm test` runs the embedded-database and PostgreSQL passes of the Vitest suite this way:
// each spends much of its time waiting on child processes (devnets, servers, PostgreSQL), so two
// side by side take little longer than the longer one.
//
//   node --import tsx scripts/side-by-side.ts test:unit test:pg
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: side-by-side.ts <npm script> [<npm script>…]');
  process.exit(2);
}
const width = Math.max(...scripts.map((name) => name.length));
const children = new Set<ReturnType<typeof spawn>>();
// Stopped (Ctrl-C, a CI timeout): the scripts stop too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });
}

function run(script: string): Promise<number> {
  const started = Date.now();
  const label = `[${script.padEnd(width)}]`;
  const child = spawn('npm', ['run', '--silent', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream }).on('line', (line) => out.write(`${label} ${line}\n`));
  }
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      const seconds = Math.round((Date.now() - started) / 1000);
      const status = code ?? (signal ? 1 : 0);
      process.stdout.write(
        `${label} ended ${status === 0 ? 'green' : `with ${code ?? signal}`} after ${seconds} s\n`,
      );
      resolve(status);
    });
  });
}

const codes = await Promise.all(scripts.map(run));
process.exit(codes.find((code) => code !== 0) ?? 0);
