import { kycSubjectTypes, tradingTiers } from '@covenant/domain';
import { z } from 'zod';

const tierSchema = z.enum(tradingTiers);

/** The response schema of a submission (and the OpenAPI description of it). */
export const kycSubmissionSchema = z.object({
  id: z.uuid(),
  status: z.enum(['pending', 'approved', 'rejected']),
  subject_type: z.enum(kycSubjectTypes),
  legal_name: z.string(),
  country: z.string().describe('ISO 3166-1 alpha-2'),
  date_of_birth: z.string().nullable().describe('YYYY-MM-DD; individuals only'),
  registration_number: z.string().nullable().describe('companies only'),
  address: z.string(),
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

export const staffKycSubmissionSchema = kycSubmissionSchema.extend({
  user: z.object({ id: z.uuid(), email: z.string(), username: z.string().nullable() }),
});
