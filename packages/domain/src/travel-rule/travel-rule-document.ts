import { z } from 'zod';
import { ivms101IdentityPayloadSchema, ivms101PersonSchema } from './ivms101.js';

const party = z.enum(['buyer', 'seller']);

/**
 * The Travel Rule record of a deal as `GET /api/v1/deals/{id}/travel-rule` exports it: one IVMS 101
 * identity payload per leg, with the leg's transfer and who is its originator and beneficiary.
 */
export const travelRuleDocumentSchema = z.object({
  deal_id: z.uuid(),
  standard: z.literal('IVMS 101'),
  threshold_usd: z.string().describe('whole US dollars'),
  value_usd: z.string().describe('the deal’s value from its stable leg, exact decimal text'),
  exchanged_at: z.string().describe('when the escrow opened and the information was exchanged'),
  transfers: z.array(
    z.object({
      leg: z.enum(['asset', 'stable']),
      chain: z.string(),
      symbol: z.string(),
      amount: z.string().describe('base units'),
      originator: party,
      beneficiary: party,
      ivms101: ivms101IdentityPayloadSchema,
    }),
  ),
});

export type TravelRuleDocument = z.infer<typeof travelRuleDocumentSchema>;

export const travelRuleElements = [
  'name',
  'identification',
  'address_too_long',
  'payout_address',
  'refund_address',
] as const;

/**
 * What a party sees before (and after) the escrow opens: whether the Travel Rule applies, its own
 * IVMS 101 Person as it will be sent, and every required element either party still lacks, the same
 * the escrow's refusal would name.
 */
export const travelRulePreviewSchema = z.object({
  applies: z.boolean(),
  threshold_usd: z.string(),
  value_usd: z.string(),
  exchanged: z.boolean().describe('the escrow opened and the document was exchanged'),
  party,
  person: ivms101PersonSchema.nullable().describe('the caller’s own IVMS 101 Person; null while incomplete'),
  gaps: z.array(z.object({ party, elements: z.array(z.enum(travelRuleElements)) })),
  message: z.string().nullable().describe('the refusal the escrow would answer now; null when complete'),
});

export type TravelRulePreview = z.infer<typeof travelRulePreviewSchema>;
