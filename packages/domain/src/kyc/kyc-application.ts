import { z } from 'zod';
import { multiLineText, singleLineText } from '../text/text-rules.js';
import { tradingTiers } from '../tier-limits.js';

export const kycSubjectTypes = ['individual', 'company'] as const;
export type KycSubjectType = (typeof kycSubjectTypes)[number];

/** Documents of one KYC submission: PDF, PNG or JPEG judged by content, at most 10 MB each. */
export const kycDocumentRules = {
  minFiles: 1,
  maxFiles: 5,
  maxBytes: 10 * 1024 * 1024,
  contentTypes: ['application/pdf', 'image/png', 'image/jpeg'],
} as const;

/** The terms of service set the minimum age. */
export const minimumAgeYears = 18;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
// Region codes Intl knows that are not countries of ISO 3166-1.
const notCountries = new Set(['EU', 'EZ', 'UN', 'ZZ', 'QO', 'XA', 'XB', 'UK']);

/** Whether a code is an ISO 3166-1 alpha-2 country (by the platform's own region data). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !notCountries.has(code) && regionNames.of(code) !== undefined;
}

/** Whole years between a YYYY-MM-DD birth date and a YYYY-MM-DD day, as birthdays count them. */
export function ageOn(dateOfBirth: string, day: string): number {
  const [birthYear, birthMonth, birthDay] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [year, month, dayOfMonth] = day.split('-').map(Number) as [number, number, number];
  const beforeBirthday = month < birthMonth || (month === birthMonth && dayOfMonth < birthDay);
  return year - birthYear - (beforeBirthday ? 1 : 0);
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => (value ? value : undefined));

const optionalLine = (max: number) =>
  singleLineText()
    .max(max, `Use at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));

/** A GLEIF registration authority code (IVMS 101 `registrationAuthority`): RA and 6 digits, e.g. RA000585. */
export function isRegistrationAuthority(code: string): boolean {
  return /^RA\d{6}$/.test(code);
}

/** IVMS 101 lengths: `townName` is Max35Text, a `nationalIdentifier` Max35Text, `placeOfBirth` Max70Text. */
export const kycFieldLimits = { townName: 35, nationalIdentifier: 35, placeOfBirthCity: 64 } as const;

/**
 * The identity or company details of a KYC submission, shared by the web form and the API. `today`
 * (YYYY-MM-DD, UTC) decides the age check. Everyone gives the town or city of the address.
 * Individuals give a date of birth (18 or older) and a place of birth (city and country); companies a
 * registration number and, when it is not an LEI, may give the GLEIF code of the register that issued
 * it (which IVMS 101 needs to send it). The fields that do not apply are dropped.
 */
export function kycApplicationSchema(today: string) {
  return z
    .object({
      subject_type: z.enum(kycSubjectTypes, { error: 'Choose individual or company' }),
      legal_name: singleLineText().min(2, 'Enter the full legal name').max(200),
      country: z
        .string()
        .trim()
        .toUpperCase()
        .refine(isCountryCode, 'Enter a country as its ISO 3166-1 alpha-2 code, e.g. DE'),
      date_of_birth: optionalText(10),
      place_of_birth_city: optionalLine(kycFieldLimits.placeOfBirthCity),
      place_of_birth_country: optionalText(8),
      registration_number: optionalText(100),
      registration_authority: optionalText(100).transform((value) => value?.toUpperCase()),
      address: multiLineText().min(5, 'Enter the full address').max(500),
      town_name: optionalLine(kycFieldLimits.townName),
      requested_tier: z.enum(tradingTiers, { error: 'Choose basic, enhanced or institutional' }),
    })
    .superRefine((application, context) => {
      if (!application.town_name) {
        context.addIssue({
          code: 'custom',
          path: ['town_name'],
          message: 'Enter the town or city of the address',
        });
      }
      if (application.subject_type === 'company') {
        if (!application.registration_number) {
          context.addIssue({
            code: 'custom',
            path: ['registration_number'],
            message: 'Enter the company registration number',
          });
        }
        const authority = application.registration_authority;
        if (authority && !isRegistrationAuthority(authority)) {
          context.addIssue({
            code: 'custom',
            path: ['registration_authority'],
            message: 'Enter the registration authority as its GLEIF code: RA and 6 digits, e.g. RA000585',
          });
        } else if (
          authority &&
          application.registration_number &&
          application.registration_number.length > kycFieldLimits.nationalIdentifier
        ) {
          context.addIssue({
            code: 'custom',
            path: ['registration_number'],
            message: `A registration number with its registration authority has at most ${kycFieldLimits.nationalIdentifier} characters`,
          });
        }
        return;
      }
      if (!application.place_of_birth_city) {
        context.addIssue({
          code: 'custom',
          path: ['place_of_birth_city'],
          message: 'Enter the city of birth',
        });
      }
      const birthCountry = application.place_of_birth_country?.toUpperCase();
      if (!birthCountry || !isCountryCode(birthCountry)) {
        context.addIssue({
          code: 'custom',
          path: ['place_of_birth_country'],
          message: 'Enter the country of birth as its ISO 3166-1 alpha-2 code, e.g. DE',
        });
      }
      const birth = application.date_of_birth;
      if (!birth) {
        context.addIssue({ code: 'custom', path: ['date_of_birth'], message: 'Enter the date of birth' });
      } else if (!isCalendarDate(birth) || birth > today || birth < '1900-01-01') {
        context.addIssue({
          code: 'custom',
          path: ['date_of_birth'],
          message: 'Enter a real date of birth as YYYY-MM-DD',
        });
      } else if (ageOn(birth, today) < minimumAgeYears) {
        context.addIssue({
          code: 'custom',
          path: ['date_of_birth'],
          message: `You must be at least ${minimumAgeYears} years old`,
        });
      }
    })
    .transform((application) => {
      const individual = application.subject_type === 'individual';
      return {
        ...application,
        date_of_birth: individual ? (application.date_of_birth ?? null) : null,
        place_of_birth_city: individual ? (application.place_of_birth_city ?? null) : null,
        place_of_birth_country: individual
          ? (application.place_of_birth_country?.toUpperCase() ?? null)
          : null,
        registration_number: individual ? null : (application.registration_number ?? null),
        registration_authority: individual ? null : (application.registration_authority ?? null),
      };
    });
}

export type KycApplicationInput = z.input<ReturnType<typeof kycApplicationSchema>>;
export type KycApplication = z.output<ReturnType<typeof kycApplicationSchema>>;
