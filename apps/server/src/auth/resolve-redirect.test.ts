import { describe, expect, it } from 'vitest';
import { resolveRedirect } from './resolve-redirect.js';

describe('resolveRedirect', () => {
  const site = 'https://covenant.example';
  it.each([
    [undefined, site],
    ['', site],
    [`${site}/reset-password`, `${site}/reset-password`],
    ['/trading?tab=mine', `${site}/trading?tab=mine`],
    ['https://evil.example/reset-password', site],
    ['https://covenant.example.evil.example/', site],
    ['//evil.example/x', site],
    ['javascript:alert(1)', site],
    ['http://covenant.example/', site],
  ])('%s → %s', (requested, expected) => {
    expect(resolveRedirect(site, requested)).toBe(expected);
  });
});
