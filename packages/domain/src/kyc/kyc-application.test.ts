import { describe, expect, it } from 'vitest';
import { ageOn, isCountryCode, kycApplicationSchema } from './kyc-application.js';

const today = '2026-03-15';
const individual = {
  subject_type: 'individual',
  legal_name: 'Jane Example',
  country: 'de',
  date_of_birth: '1990-06-01',
  place_of_birth_city: 'Hamburg',
  place_of_birth_country: 'DE',
  address: 'Hauptstraße 1, 10115 Berlin',
  town_name: 'Berlin',
  requested_tier: 'enhanced',
};

const company = {
  subject_type: 'company',
  legal_name: 'Example Trading GmbH',
  country: 'CH',
  registration_number: 'CHE-123.456.789',
  address: 'Bahnhofstrasse 1, 8001 Zürich',
  town_name: 'Zürich',
  requested_tier: 'institutional',
};

function issuesOf(input: Record<string, unknown>) {
  const result = kycApplicationSchema(today).safeParse(input);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('kycApplicationSchema', () => {
  it('accepts an individual, normalising the countries and dropping the company fields', () => {
    expect(
      kycApplicationSchema(today).parse({
        ...individual,
        place_of_birth_country: ' de ',
        registration_number: 'HRB 1',
        registration_authority: 'RA000242',
      }),
    ).toEqual({
      ...individual,
      country: 'DE',
      registration_number: null,
      registration_authority: null,
    });
  });

  it('accepts a company with a registration number and no date or place of birth', () => {
    const parsed = kycApplicationSchema(today).parse({
      ...company,
      date_of_birth: '1990-06-01',
      place_of_birth_city: 'Basel',
      place_of_birth_country: 'CH',
    });
    expect(parsed).toEqual({
      ...company,
      date_of_birth: null,
      place_of_birth_city: null,
      place_of_birth_country: null,
      registration_authority: null,
    });
  });

  it('takes a company’s registration authority as a GLEIF code, RA and 6 digits', () => {
    expect(
      kycApplicationSchema(today).parse({ ...company, registration_authority: ' ra000548 ' }),
    ).toMatchObject({ registration_number: 'CHE-123.456.789', registration_authority: 'RA000548' });
    for (const code of ['RA00548', 'RA0005480', 'RB000548', 'Zefix', 'RA 000548']) {
      expect(issuesOf({ ...company, registration_authority: code })).toEqual([
        'registration_authority: Enter the registration authority as its GLEIF code: RA and 6 digits, e.g. RA000585',
      ]);
    }
    // IVMS 101 sends the number with its authority as a nationalIdentifier of at most 35 characters.
    expect(
      issuesOf({ ...company, registration_number: 'N'.repeat(36), registration_authority: 'RA000548' }),
    ).toEqual([
      'registration_number: A registration number with its registration authority has at most 35 characters',
    ]);
    expect(issuesOf({ ...company, registration_number: 'N'.repeat(36) })).toEqual([]);
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
    expect(
      issuesOf({ ...individual, town_name: ' ', place_of_birth_city: undefined, place_of_birth_country: '' }),
    ).toEqual([
      'town_name: Enter the town or city of the address',
      'place_of_birth_city: Enter the city of birth',
      'place_of_birth_country: Enter the country of birth as its ISO 3166-1 alpha-2 code, e.g. DE',
    ]);
    expect(issuesOf({ ...individual, place_of_birth_country: 'XX' })).toEqual([
      'place_of_birth_country: Enter the country of birth as its ISO 3166-1 alpha-2 code, e.g. DE',
    ]);
    expect(issuesOf({ ...company, town_name: undefined })).toEqual([
      'town_name: Enter the town or city of the address',
    ]);
    // IVMS 101: townName is at most 35 characters; the city of birth leaves room for its country.
    expect(
      issuesOf({ ...individual, town_name: 'T'.repeat(36), place_of_birth_city: 'P'.repeat(65) }),
    ).toEqual(['place_of_birth_city: Use at most 64 characters', 'town_name: Use at most 35 characters']);
    expect(issuesOf({ ...individual, town_name: 'Berlin\nMitte' })).toEqual([
      expect.stringMatching(/^town_name: Remove control characters/),
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
