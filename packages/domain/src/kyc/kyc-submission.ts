import { z } from 'zod';
import { tradingTiers } from '../tier-limits.js';
import { kycSubjectTypes } from './kyc-application.js';

const tierSchema = z.enum(tradingTiers);

/** A verification request as the API shows it to its owner: the server's response schema and the web's type. */
export const kycSubmissionSchema = z.object({
  id: z.uuid(),
  status: z.enum(['pending', 'approved', 'rejected']),
  subject_type: z.enum(kycSubjectTypes),
  legal_name: z.string(),
  country: z.string().describe('ISO 3166-1 alpha-2'),
  date_of_birth: z.string().nullable().describe('YYYY-MM-DD; individuals only'),
  place_of_birth_city: z
    .string()
    .nullable()
    .describe('individuals only; null on requests sent before it was asked'),
  place_of_birth_country: z
    .string()
    .nullable()
    .describe('ISO 3166-1 alpha-2; individuals only; null on requests sent before it was asked'),
  registration_number: z.string().nullable().describe('companies only'),
  registration_authority: z
    .string()
    .nullable()
    .describe(
      'GLEIF registration authority code (RA and 6 digits) of the registration number; companies only',
    ),
  address: z.string(),
  town_name: z
    .string()
    .nullable()
    .describe('town or city of the address; null on requests sent before it was asked'),
  requested_tier: tierSchema,
  approved_tier: tierSchema.nullable(),
  limit_usd: z.string().nullable().describe('per-transaction limit granted, whole US dollars'),
  rejection_reason: z.string().nullable(),
  submitted_at: z.string(),
  reviewed_at: z.string().nullable(),
  documents: z.array(
    z.object({ id: z.uuid(), filename: z.string(), content_type: z.string(), size: z.number().int() }),
  ),
});

/** The same request with the trader who sent it, as compliance staff see it. */
export const staffKycSubmissionSchema = kycSubmissionSchema.extend({
  user: z.object({ id: z.uuid(), email: z.string(), username: z.string().nullable() }),
});

export type KycSubmission = z.infer<typeof kycSubmissionSchema>;
export type KycDocument = KycSubmission['documents'][number];
export type StaffKycSubmission = z.infer<typeof staffKycSubmissionSchema>;
