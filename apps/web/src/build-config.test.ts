import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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

  it('writes a brotli and a gzip copy beside each text file, and none that would not be smaller', async () => {
    const root = join(dirname(expect.getState().testPath ?? ''), '..');
    const config = await resolveConfig({ root, logLevel: 'silent' }, 'build', 'production');
    const plugin = config.plugins.find((candidate) => candidate.name === 'covenant-precompress');
    if (!plugin) throw new Error('the build has no precompress plugin');

    const outDir = mkdtempSync(join(tmpdir(), 'covenant-dist-'));
    try {
      mkdirSync(join(outDir, 'assets'));
      const script = `console.log(${JSON.stringify('covenant '.repeat(200))});`;
      writeFileSync(join(outDir, 'assets', 'index-Ab12.js'), script);
      writeFileSync(join(outDir, 'index.html'), '<p>');
      writeFileSync(join(outDir, 'assets', 'logo-Cd34.png'), 'not text');
      type Hook = (this: unknown, ...args: unknown[]) => void;
      (plugin.configResolved as Hook).call(null, { root, build: { outDir } });
      (plugin.closeBundle as Hook).call(null);

      const copy = (name: string) => readFileSync(join(outDir, name));
      expect(brotliDecompressSync(copy('assets/index-Ab12.js.br')).toString()).toBe(script);
      expect(gunzipSync(copy('assets/index-Ab12.js.gz')).toString()).toBe(script);
      expect(() => copy('index.html.br')).toThrow(/ENOENT/);
      expect(() => copy('index.html.gz')).toThrow(/ENOENT/);
      expect(() => copy('assets/logo-Cd34.png.br')).toThrow(/ENOENT/);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
