import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { garbageCollectorFlags } from './tune-garbage-collector.js';

describe('the V8 settings of the server (tune-garbage-collector)', () => {
  it('turns off allocation-site pretenuring', () => {
    expect(garbageCollectorFlags).toEqual(['--no-allocation-site-pretenuring']);
  });

  it('is the first module the server imports, before any other allocates', () => {
    const main = readFileSync(new URL('./main.ts', import.meta.url), 'utf8');
    const imports = [...main.matchAll(/^import\s[^;]*?['"]([^'"]+)['"];?$/gms)].map((match) => match[1]);
    expect(imports[0]).toBe('./tune-garbage-collector.js');
    expect(imports.length).toBeGreaterThan(10);
  });
});
