import { describe, expect, it } from 'vitest';
import { msUntilRefresh } from './meeting-code.js';

const code = (expiresAt: string) => ({ token: 'ABCD-EFGH', qr_text: 'x', expires_at: expiresAt });

describe('msUntilRefresh', () => {
  it('fetches the next code five seconds before the shown one expires, and never sooner than a second', () => {
    const now = Date.parse('2026-12-01T10:00:00.000Z');
    // expires 60 s from now: 60 000 − 5 000 = 55 000 ms
    expect(msUntilRefresh(code('2026-12-01T10:01:00.000Z'), now)).toBe(55_000);
    // expires in 3 s (or has expired): at least a second, not a busy loop
    expect(msUntilRefresh(code('2026-12-01T10:00:03.000Z'), now)).toBe(1_000);
    expect(msUntilRefresh(code('2026-12-01T09:59:00.000Z'), now)).toBe(1_000);
  });
});
