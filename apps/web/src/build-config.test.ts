import { dirname, join } from 'node:path';
import { resolveConfig } from 'vite';
import { describe, expect, it } from 'vitest';

describe('the production build', () => {
  it('makes no source maps for the server to serve (ASVS 12.5.1)', async () => {
    // The configuration `npm run build` uses, loaded and resolved by Vite as for that build (the
    // test's own path locates it: jsdom gives modules no file URL).
    const root = join(dirname(expect.getState().testPath ?? ''), '..');
    const config = await resolveConfig({ root, logLevel: 'silent' }, 'build', 'production');
    expect(config.configFile).toBe(join(root, 'vite.config.ts'));
    expect(config.build.sourcemap).toBe(false);
  });
});
