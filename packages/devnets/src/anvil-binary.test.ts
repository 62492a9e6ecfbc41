import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { anvilBinaryPath } from './anvil-binary.js';

describe('anvilBinaryPath', () => {
  it('finds the anvil of the npm package, and it runs', async () => {
    const { stdout } = await promisify(execFile)(anvilBinaryPath(), ['--version']);
    expect(stdout).toMatch(/^anvil Version: 1\.7\.1/);
  });
});
