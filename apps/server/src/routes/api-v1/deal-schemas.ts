import {
  assetChains,
  dealStatuses,
  meetingSchema,
  multiLineText,
  singleLineText,
  stableChains,
} from '@covenant/domain';
import { z } from 'zod';

/** Amounts travel as base-unit decimal strings; their exact rules are checked by the use case. */
const baseUnitAmount = z
  .string()
  .max(100)
  .describe('Integer amount in the token’s smallest unit, as a decimal string ("50000000" = 0.5 BTC)');

/** The meeting as a request carries it; its place is text under the usual text rules. */
export const meetingInputSchema = meetingSchema
  .extend({ location: singleLineText().min(1).max(200) })
  .describe(
    'Required before terms with meeting_required can be accepted. Dates are UTC; check-in is open from the day before starts_on until the day after the longest duration',
  );

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
  travel_location: singleLineText().max(200).nullable().default(null),
  meeting: meetingInputSchema
    .nullable()
    .optional()
    .describe('With meeting_required: the meeting; travel_location then mirrors its location'),
});

export const newDealSchema = dealTermsSchema.extend({ counterparty_id: z.uuid() });

/** A new version of the terms: the latest one with these fields changed. */
export const dealTermsChangeSchema = dealTermsSchema
  .extend({
    meeting_required: z.boolean().optional(),
    travel_location: singleLineText().max(200).nullable().optional(),
    funding_deadline_hours: z
      .number()
      .int()
      .min(1)
      .max(168)
      .describe('Hours to fund the escrow once the terms are agreed: 1 hour to 7 days'),
  })
  .partial();

export const acceptDealTermsSchema = z.object({
  version: z
    .number()
    .int()
    .min(1)
    .describe('The exact version you accept: the latest, proposed by the other party'),
});

const address = z.string().min(1).max(128);

export const dealAddressesSchema = z.object({
  payout_address: address.describe('Where you are paid: on the chain you receive on'),
  refund_address: address.describe('Where your deposit goes back to: on the chain you deposit from'),
});

export const listDealsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: z.uuid().optional(),
  status: z.enum(dealStatuses).optional(),
});

export const cancelDealSchema = z.object({
  reason: multiLineText().min(1).max(1000).describe('Why the deal is cancelled; kept in the audit trail'),
});
