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

/**
 * The identity or company details of a KYC submission, shared by the web form and the API. `today`
 * (YYYY-MM-DD, UTC) decides the age check. Individuals give a date of birth (18 or older), companies
 * a registration number; the field that does not apply is dropped.
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
      registration_number: optionalText(100),
      address: multiLineText().min(5, 'Enter the full address').max(500),
      requested_tier: z.enum(tradingTiers, { error: 'Choose basic, enhanced or institutional' }),
    })
    .superRefine((application, context) => {
      if (application.subject_type === 'company') {
        if (!application.registration_number) {
          context.addIssue({
            code: 'custom',
            path: ['registration_number'],
            message: 'Enter the company registration number',
          });
        }
        return;
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
    .transform((application) => ({
      ...application,
      date_of_birth: application.subject_type === 'individual' ? (application.date_of_birth ?? null) : null,
      registration_number:
        application.subject_type === 'company' ? (application.registration_number ?? null) : null,
    }));
}

export type KycApplicationInput = z.input<ReturnType<typeof kycApplicationSchema>>;
export type KycApplication = z.output<ReturnType<typeof kycApplicationSchema>>;
