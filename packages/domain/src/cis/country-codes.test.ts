import { describe, expect, it } from 'vitest';
import { countryCodes, countryName, isAssignedCountryCode } from './country-codes.js';

describe('countryCodes', () => {
  it('holds the 249 assigned codes once each, alphabetical, each a region the runtime can name', () => {
    expect(countryCodes).toHaveLength(249);
    expect(new Set(countryCodes).size).toBe(249);
    expect([...countryCodes].sort()).toEqual(countryCodes);
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    expect(countryCodes.filter((code) => !names.of(code))).toEqual([]);
  });

  it('knows assigned codes only, in capitals', () => {
    expect(isAssignedCountryCode('CH')).toBe(true);
    expect(isAssignedCountryCode('ch')).toBe(false);
    expect(isAssignedCountryCode('UK')).toBe(false);
    expect(isAssignedCountryCode('XK')).toBe(false);
  });
});

describe('countryName', () => {
  it('names the country in English by default, or another locale', () => {
    expect(countryName('CH')).toBe('Switzerland');
    expect(countryName('GB')).toBe('United Kingdom');
    expect(countryName('CH', 'de')).toBe('Schweiz');
  });
});
