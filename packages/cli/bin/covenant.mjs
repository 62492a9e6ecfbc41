#!/usr/bin/env node
// Runs the TypeScript sources as they are (no build step), the way the server runs with `node --import tsx`.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/run-cli.ts');
process.exitCode = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
