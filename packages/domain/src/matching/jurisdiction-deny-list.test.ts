import { describe, expect, it } from 'vitest';
import { jurisdictionsMayMatch, parseJurisdictionDenyList } from './jurisdiction-deny-list.js';

describe('the jurisdiction deny list', () => {
  it('reads countries and pairs in any case, ignoring blanks', () => {
    const parsed = parseJurisdictionDenyList(' kp, IR ,,us-cu ');
    expect(parsed).toEqual({
      ok: true,
      list: { countries: new Set(['KP', 'IR']), pairs: new Set(['CU-US']) },
    });
  });

  it('names every entry it cannot read', () => {
    expect(parseJurisdictionDenyList('KP,XX,US-CU-IR,USA,CH-')).toEqual({
      ok: false,
      invalid: ['XX', 'US-CU-IR', 'USA', 'CH-'],
    });
  });

  it('keeps a denied country from every match, and a denied pair apart either way round', () => {
    const parsed = parseJurisdictionDenyList('KP,US-CU');
    if (!parsed.ok) throw new Error('the list is valid');
    const { list } = parsed;
    expect(jurisdictionsMayMatch(list, 'KP', 'CH')).toBe(false);
    expect(jurisdictionsMayMatch(list, 'CH', 'KP')).toBe(false);
    expect(jurisdictionsMayMatch(list, 'US', 'CU')).toBe(false);
    expect(jurisdictionsMayMatch(list, 'CU', 'US')).toBe(false);
    expect(jurisdictionsMayMatch(list, 'US', 'CH')).toBe(true);
    expect(jurisdictionsMayMatch(list, 'CU', 'CU')).toBe(true);
  });
});
