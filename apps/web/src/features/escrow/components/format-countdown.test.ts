import { describe, expect, it } from 'vitest';
import { formatCountdown } from './format-countdown.js';

const now = new Date('2026-03-05T10:00:00.000Z');
const after = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('formatCountdown', () => {
  it('shows hours and minutes while hours remain, rounding the seconds down', () => {
    // 23 h 59 min 59 s left: the minute shown is the one still running.
    expect(formatCountdown(after(23 * 3600 + 59 * 60 + 59), now)).toBe('23 h 59 min');
    expect(formatCountdown(after(48 * 3600), now)).toBe('48 h 0 min');
    expect(formatCountdown(after(3600), now)).toBe('1 h 0 min');
  });

  it('shows minutes and seconds in the last hour, and seconds in the last minute', () => {
    expect(formatCountdown(after(59 * 60 + 5), now)).toBe('59 min 05 s');
    expect(formatCountdown(after(60), now)).toBe('1 min 00 s');
    expect(formatCountdown(after(42), now)).toBe('42 s');
  });

  it('is null once the deadline has come', () => {
    expect(formatCountdown(after(0), now)).toBeNull();
    expect(formatCountdown(after(-1), now)).toBeNull();
    // Under a second left counts as passed: "0 s" would say nothing useful.
    expect(formatCountdown(new Date(now.getTime() + 999), now)).toBeNull();
  });
});
