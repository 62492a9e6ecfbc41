import { describe, expect, it } from 'vitest';
import { formatUtcMinute } from './format-utc-minute.js';

describe('formatUtcMinute', () => {
  it('gives the minute in UTC, dropping seconds (never rounding up), from a Date or an ISO text', () => {
    expect(formatUtcMinute(new Date('2026-12-02T01:00:59.999Z'))).toBe('2026-12-02 01:00 UTC');
    expect(formatUtcMinute('2026-12-01T23:30:00+02:00')).toBe('2026-12-01 21:30 UTC');
  });

  it('is undefined for a text that is no time', () => {
    expect(formatUtcMinute('soon')).toBeUndefined();
    expect(formatUtcMinute(new Date(Number.NaN))).toBeUndefined();
  });
});
