import { z } from 'zod';
import { dealAuditTrailSchema, dealSchema, dealStatuses } from '../deals/deal.js';
import { escrowLegNames, escrowLegStates, escrowStatusValues } from '../escrow/escrow-api.js';

/** A party as staff see it: who the user is, by id, e-mail address and username. */
const staffPartySchema = z.object({ id: z.uuid(), email: z.string(), username: z.string().nullable() });

/** `GET /staff/deals?q=`: a deal id, escrow id, user id, e-mail address, username or an address. */
export const staffDealSearchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Type a deal id, a user (id, e-mail address or username) or an address')
    .max(200)
    .describe(
      'Matched exactly (any case): a deal or escrow id, a party’s user id, e-mail address or username, or an ' +
        'escrow deposit address, a payout or refund address, or the address a deposit came from',
    ),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const staffDealMatches = ['deal', 'escrow', 'user', 'address'] as const;

/** A row of the search: the deal, its parties, and what matched. */
export const staffDealSummarySchema = z.object({
  id: z.uuid(),
  status: z.enum(dealStatuses),
  asset_chain: z.string(),
  asset_symbol: z.string(),
  asset_amount: z.string(),
  stable_chain: z.string(),
  stable_symbol: z.string(),
  stable_amount: z.string(),
  buyer: staffPartySchema,
  seller: staffPartySchema,
  created_at: z.string(),
  matched: z.enum(staffDealMatches).describe('What the search text matched'),
});
export type StaffDealSummary = z.infer<typeof staffDealSummarySchema>;
export const staffDealSearchResultSchema = z.object({ data: z.array(staffDealSummarySchema) });
export type StaffDealSearchResult = z.infer<typeof staffDealSearchResultSchema>;

const movementSchema = z.object({
  kind: z.string().describe('deposit, payout, fee, refund, sweep, network_fee or travel'),
  amount: z.string().describe('Base units'),
  transaction_hash: z.string(),
  counterparty_address: z.string().nullable(),
  confirmations: z.number().int(),
  status: z.string(),
  created_at: z.string(),
});

const staffEscrowLegSchema = z.object({
  leg: z.enum(escrowLegNames),
  chain: z.string(),
  symbol: z.string(),
  token_address: z.string().nullable(),
  required_amount: z.string().describe('Base units'),
  deposit_address: z.string(),
  depositor_refund_address: z.string(),
  receiver_payout_address: z.string(),
  state: z.enum(escrowLegStates),
  deadline: z.string(),
  movements: z.array(movementSchema).describe('What moved on-chain for the leg, oldest first'),
});

const staffPayoutSchema = z.object({
  id: z.uuid(),
  leg: z.enum(escrowLegNames),
  chain: z.string(),
  kind: z.string(),
  source: z.string(),
  status: z.string(),
  transaction_hash: z.string().nullable(),
  error: z.string().nullable(),
  submitted_at: z.string().nullable(),
  confirmed_at: z.string().nullable(),
  created_at: z.string(),
});

const staffDealAlertSchema = z.object({
  id: z.uuid(),
  kind: z.string(),
  subject: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
  /** The e-mail of the staff member who resolved it; null while open and when the engine saw the problem gone. */
  resolved_by: z.string().nullable(),
});

/** `GET /staff/deals/{id}`: everything about one deal, for compliance staff and mediators. */
export const staffDealViewSchema = z.object({
  deal: dealSchema.omit({ counterparty_id: true }),
  parties: z.object({ buyer: staffPartySchema, seller: staffPartySchema }),
  addresses: z.array(
    z.object({ party: z.enum(['buyer', 'seller']), payout_address: z.string(), refund_address: z.string() }),
  ),
  escrow: z
    .object({ id: z.uuid(), status: z.enum(escrowStatusValues), legs: z.array(staffEscrowLegSchema) })
    .nullable()
    .describe('Null until the escrow is opened'),
  payouts: z.array(staffPayoutSchema).describe('Every payout of the escrow, oldest first'),
  audit: dealAuditTrailSchema.describe('Verified afresh; ends with this read, which is itself recorded'),
  alerts: z
    .array(staffDealAlertSchema)
    .describe('Staff alerts about the deal or its escrow, open and resolved'),
});
export type StaffDealView = z.infer<typeof staffDealViewSchema>;
