import { describe, expect, it } from 'vitest';
import { ageOn, isCountryCode, kycApplicationSchema } from './kyc-application.js';

const today = '2026-03-15';
const individual = {
  subject_type: 'individual',
  legal_name: 'Jane Example',
  country: 'de',
  date_of_birth: '1990-06-01',
  address: 'Hauptstraße 1, 10115 Berlin',
  requested_tier: 'enhanced',
};

function issuesOf(input: Record<string, unknown>) {
  const result = kycApplicationSchema(today).safeParse(input);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('kycApplicationSchema', () => {
  it('accepts an individual, normalising the country and dropping the company field', () => {
    expect(kycApplicationSchema(today).parse({ ...individual, registration_number: 'HRB 1' })).toEqual({
      ...individual,
      country: 'DE',
      registration_number: null,
    });
  });

  it('accepts a company with a registration number and no date of birth', () => {
    const company = kycApplicationSchema(today).parse({
      subject_type: 'company',
      legal_name: 'Example Trading GmbH',
      country: 'CH',
      registration_number: 'CHE-123.456.789',
      address: 'Bahnhofstrasse 1, 8001 Zürich',
      requested_tier: 'institutional',
    });
    expect(company).toMatchObject({ date_of_birth: null, registration_number: 'CHE-123.456.789' });
  });

  it('names every missing or wrong field', () => {
    expect(issuesOf({})).toEqual(
      expect.arrayContaining([
        'subject_type: Choose individual or company',
        expect.stringMatching(/^legal_name: /),
        expect.stringMatching(/^country: /),
        expect.stringMatching(/^address: /),
        'requested_tier: Choose basic, enhanced or institutional',
      ]),
    );
    expect(issuesOf({ ...individual, date_of_birth: undefined })).toEqual([
      'date_of_birth: Enter the date of birth',
    ]);
    expect(issuesOf({ ...individual, country: 'XX' })).toEqual([
      'country: Enter a country as its ISO 3166-1 alpha-2 code, e.g. DE',
    ]);
    expect(issuesOf({ ...individual, subject_type: 'company' })).toEqual([
      'registration_number: Enter the company registration number',
    ]);
  });

  it('refuses anyone under 18 on the day, and impossible dates', () => {
    // 18 on 2026-03-15 means born on or before 2008-03-15.
    expect(issuesOf({ ...individual, date_of_birth: '2008-03-15' })).toEqual([]);
    expect(issuesOf({ ...individual, date_of_birth: '2008-03-16' })).toEqual([
      'date_of_birth: You must be at least 18 years old',
    ]);
    for (const date of ['2001-02-29', '1990-13-01', '15.06.1990', '2027-01-01', '1899-12-31']) {
      expect(issuesOf({ ...individual, date_of_birth: date })).toEqual([
        'date_of_birth: Enter a real date of birth as YYYY-MM-DD',
      ]);
    }
  });
});

describe('ageOn', () => {
  it('counts a year only once the birthday has come', () => {
    expect(ageOn('2000-02-29', '2018-02-28')).toBe(17);
    expect(ageOn('2000-02-29', '2018-03-01')).toBe(18);
    expect(ageOn('1990-06-01', '2026-06-01')).toBe(36);
  });
});

describe('isCountryCode', () => {
  it('knows countries and refuses other region codes', () => {
    expect(['DE', 'US', 'CH', 'SG', 'AE'].every(isCountryCode)).toBe(true);
    expect(['XX', 'EU', 'UN', 'ZZ', 'de', 'DEU', ''].some(isCountryCode)).toBe(false);
  });
});
