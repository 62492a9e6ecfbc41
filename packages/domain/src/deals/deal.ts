import { z } from 'zod';
import { bitcoinNetworks } from '../addresses/validate-chain-address.js';
import { tradingTiers } from '../tier-limits.js';
import { meetingSchema } from './meeting.js';

export const dealStatuses = [
  'draft',
  'cis_submitted',
  'terms_agreed',
  'escrow_funded',
  'completed',
  'cancelled',
  'disputed',
] as const;

const dealPartySchema = z.object({
  id: z.uuid(),
  username: z.string().nullable(),
  trading_tier: z.enum(tradingTiers).nullable(),
});

/** The tradeable fields of a deal (amounts are decimal strings in the token's base units). */
const dealTermsFields = {
  asset_chain: z.string(),
  asset_symbol: z.string(),
  asset_amount: z.string(),
  stable_chain: z.string(),
  stable_symbol: z.string(),
  stable_amount: z.string(),
  meeting_required: z.boolean(),
  travel_location: z.string().nullable(),
};

/** One party's own addresses on a deal: payout on the chain it receives on, refund on the one it deposits from. */
export const dealPartyAddressesSchema = z.object({
  payout_address: z.string(),
  refund_address: z.string(),
});

/** What a version of the terms fixes: the tradeable fields and the hours the parties have to fund. */
export const dealTermsVersionTermsSchema = z.object({
  ...dealTermsFields,
  funding_deadline_hours: z.number().int(),
  /** Present only when the terms require a meeting and its details were proposed (older versions never have it). */
  meeting: meetingSchema.optional(),
});

/** A deal as /api/v1 shows it to one of its parties: the server's response schema and the web's type. */
export const dealSchema = z.object({
  id: z.uuid(),
  buyer_id: z.uuid(),
  seller_id: z.uuid(),
  counterparty_id: z.uuid().describe('The other party, seen from the caller'),
  buyer: dealPartySchema,
  seller: dealPartySchema,
  ...dealTermsFields,
  meeting: meetingSchema
    .nullable()
    .describe('The meeting the terms require: place, coordinates, first day, duration, who pays travel'),
  status: z.enum(dealStatuses),
  terms_version: z.number().int().describe('The latest proposed version of the terms'),
  terms_proposed_by: z.uuid().describe('Who proposed the latest version; the other party may accept it'),
  funding_deadline_hours: z.number().int().describe('Hours to fund the escrow once the terms are agreed'),
  accepted_terms_version: z.number().int().nullable().describe('The version both parties agreed, if any'),
  terms_hash: z
    .string()
    .nullable()
    .describe('SHA-256 (hex) over the accepted version and both parties’ addresses (docs/audit-trail.md)'),
  terms_agreed_at: z.string().nullable(),
  addresses: z.object({
    buyer: dealPartyAddressesSchema.nullable(),
    seller: dealPartyAddressesSchema.nullable(),
  }),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
});

export const dealHistoryEntrySchema = z.object({
  seq: z.number().int(),
  action: z.string(),
  actor_id: z.uuid().nullable(),
  created_at: z.string(),
  details: z.record(z.string(), z.unknown()),
});

export const dealWithHistorySchema = dealSchema.extend({ history: z.array(dealHistoryEntrySchema) });

export type Deal = z.infer<typeof dealSchema>;
export type DealPartyAddresses = z.infer<typeof dealPartyAddressesSchema>;
export type DealTermsVersionTerms = z.infer<typeof dealTermsVersionTermsSchema>;
export type DealTerms = Pick<Deal, keyof typeof dealTermsFields>;
export type DealHistoryEntry = z.infer<typeof dealHistoryEntrySchema>;
export type DealWithHistory = z.infer<typeof dealWithHistorySchema>;

/** Every version of a deal's terms, oldest first, and which one was agreed. */
export const dealTermsHistorySchema = z.object({
  versions: z.array(
    z.object({
      version: z.number().int(),
      proposed_by: z.uuid(),
      terms: dealTermsVersionTermsSchema,
      created_at: z.string(),
    }),
  ),
  accepted_version: z.number().int().nullable(),
  terms_hash: z.string().nullable(),
  bitcoin_network: z
    .enum(bitcoinNetworks)
    .describe('The Bitcoin network whose address formats payout and refund addresses must have'),
});

export type DealTermsHistory = z.infer<typeof dealTermsHistorySchema>;

/** A deal's tamper-evident audit trail as /api/v1 shows it (docs/audit-trail.md defines the hashes). */
export const dealAuditTrailSchema = z.object({
  deal_id: z.uuid(),
  entries: z.array(
    z.object({
      seq: z.number().int(),
      action: z.string(),
      actor_id: z.uuid().nullable(),
      payload: z.record(z.string(), z.unknown()),
      created_at: z.string(),
      prev_hash: z.string(),
      hash: z.string(),
    }),
  ),
  verified: z.boolean().describe('Whether every hash was recomputed from its entry and the previous hash'),
  broken_at_seq: z.number().int().nullable().describe('The first entry that does not verify, if any'),
});

export type DealAuditTrail = z.infer<typeof dealAuditTrailSchema>;
