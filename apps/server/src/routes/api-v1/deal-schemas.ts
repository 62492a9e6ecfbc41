import { assetChains, stableChains } from '@covenant/domain';
import { z } from 'zod';

const dealStatuses = [
  'draft',
  'cis_submitted',
  'terms_agreed',
  'escrow_funded',
  'completed',
  'cancelled',
  'disputed',
] as const;

/** Amounts travel as base-unit decimal strings; their exact rules are checked by the use case. */
const baseUnitAmount = z
  .string()
  .max(100)
  .describe('Integer amount in the token’s smallest unit, as a decimal string ("50000000" = 0.5 BTC)');

export const dealTermsSchema = z.object({
  asset_chain: z.enum(assetChains),
  asset_symbol: z
    .string()
    .min(1)
    .max(10)
    .describe('BTC on BTC; ETH, WETH, WBTC, USDC, USDT on ETH; SOL, USDC on SOL'),
  asset_amount: baseUnitAmount,
  stable_chain: z.enum(stableChains),
  stable_symbol: z.string().min(1).max(10).describe('USDC or USDT on ETH; USDC on SOL'),
  stable_amount: baseUnitAmount,
  meeting_required: z.boolean().default(false),
  travel_location: z.string().trim().max(200).nullable().default(null),
});

export const newDealSchema = dealTermsSchema.extend({ counterparty_id: z.uuid() });

export const dealTermsChangeSchema = dealTermsSchema
  .extend({
    meeting_required: z.boolean().optional(),
    travel_location: z.string().trim().max(200).nullable().optional(),
  })
  .partial();

const partySchema = z.object({
  id: z.uuid(),
  username: z.string().nullable(),
  trading_tier: z.enum(['basic', 'enhanced', 'institutional']).nullable(),
});

export const dealSchema = z.object({
  id: z.uuid(),
  buyer_id: z.uuid(),
  seller_id: z.uuid(),
  counterparty_id: z.uuid().describe('The other party, seen from the caller'),
  buyer: partySchema,
  seller: partySchema,
  asset_chain: z.string(),
  asset_symbol: z.string(),
  asset_amount: z.string(),
  stable_chain: z.string(),
  stable_symbol: z.string(),
  stable_amount: z.string(),
  meeting_required: z.boolean(),
  travel_location: z.string().nullable(),
  status: z.enum(dealStatuses),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
});

export const dealWithHistorySchema = dealSchema.extend({
  history: z.array(
    z.object({
      seq: z.number().int(),
      action: z.string(),
      actor_id: z.uuid().nullable(),
      created_at: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  ),
});

export const listDealsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: z.uuid().optional(),
  status: z.enum(dealStatuses).optional(),
});
