import { z } from 'zod';
import { multiLineText, singleLineText } from '../text/text-rules.js';
import { dealStatuses } from './deal.js';
import { meetingViewSchema, travelKinds } from './meeting.js';

/**
 * A travel item's life: `requested` waits for the concierge's quote; `quoted` for both parties'
 * approvals (a new quote may replace it); `approved` has them and its payout is on its way; `paid`
 * once the payout confirmed on-chain; `booked` once the concierge confirmed the booking; `cancelled`
 * by a party before approval, or when the deal closed first.
 */
export const travelItemStatuses = ['requested', 'quoted', 'approved', 'paid', 'booked', 'cancelled'] as const;
export type TravelItemStatusName = (typeof travelItemStatuses)[number];

/** The statuses in which a party may still cancel an item, and the concierge may (re)quote it. */
export const openTravelItemStatuses = ['requested', 'quoted'] as const;

export const travelParties = ['buyer', 'seller'] as const;

/** `POST /deals/{id}/travel`: one item of travel for the deal's meeting. */
export const travelRequestSchema = z.object({
  kind: z.enum(travelKinds),
  traveller: z.enum(travelParties).describe('Which party travels'),
  details: multiLineText()
    .min(1, 'Describe the travel: dates, route or address, notes')
    .max(2000, 'Keep the details under 2000 characters')
    .describe('Dates, route or address, and notes for the concierge'),
});
export type TravelRequest = z.infer<typeof travelRequestSchema>;

/** Base units of the deal's stable token: a whole number above zero, no sign, no decimals. */
const positiveBaseUnits = z
  .string()
  .regex(/^[1-9]\d{0,77}$/, 'A positive whole number of base units, e.g. "450000000" for 450 USDC');

/** `POST /staff/travel/{item}/quote`: the concierge's price for an item. */
export const travelQuoteRequestSchema = z.object({
  provider: singleLineText().min(1, 'Name the provider').max(200, 'Keep the provider under 200 characters'),
  description: multiLineText()
    .min(1, 'Describe what the quote covers')
    .max(2000, 'Keep the description under 2000 characters'),
  amount: positiveBaseUnits.describe("Base units of the deal's stable token (USDC and USDT: 6 decimals)"),
  payee_address: z
    .string()
    .min(1)
    .max(200)
    .describe("The provider's address on the deal's stable chain; checked for that chain"),
});
export type TravelQuoteRequest = z.infer<typeof travelQuoteRequestSchema>;

export const travelQuoteSchema = z.object({
  version: z.number().int().describe('Raised by each new quote; approvals count for one version only'),
  provider: z.string(),
  description: z.string(),
  amount: z.string().describe('Base units of the stable token'),
  symbol: z.string(),
  chain: z.string(),
  payee_address: z.string(),
  has_file: z.boolean().describe('Whether a booking confirmation or quote file is attached'),
  quoted_at: z.string(),
});
export type TravelQuote = z.infer<typeof travelQuoteSchema>;

/** A travel item as the deal's parties and the concierge see it. */
export const travelItemSchema = z.object({
  id: z.uuid(),
  deal_id: z.uuid(),
  kind: z.enum(travelKinds),
  traveller: z.enum(travelParties),
  details: z.string(),
  status: z.enum(travelItemStatuses),
  requested_by: z.enum(travelParties),
  quote: travelQuoteSchema.nullable(),
  approved_by: z.array(z.enum(travelParties)).describe('The parties who approved the current quote version'),
  signing_payload: z
    .looseObject({ format: z.string(), data: z.unknown() })
    .nullable()
    .describe(
      'The partial payout the buyer (the stable leg’s depositor) signs while the quote awaits approval: ' +
        '`{format: "eip712", data: <typed data>}` on Ethereum, `{format: "solana_message", data: <base64 message>, summary, signer}` ' +
        'on Solana; post the signature to `/travel/{item_id}/approve`. Null otherwise',
    ),
  transaction_hash: z.string().nullable().describe('The payout transaction, once it is broadcast'),
  booked_at: z.string().nullable(),
  created_at: z.string(),
});
export type TravelItem = z.infer<typeof travelItemSchema>;

/** A row of the concierge's queue: the item with what a quote needs from its deal. */
export const staffTravelItemSchema = travelItemSchema.extend({
  deal: z.object({
    id: z.uuid(),
    status: z.enum(dealStatuses),
    stable_chain: z.string(),
    stable_symbol: z.string(),
    travel_location: z
      .string()
      .nullable()
      .describe("Where the parties meet: the deal's travel location, or else its meeting's location"),
  }),
  traveller_username: z.string().nullable(),
});
export type StaffTravelItem = z.infer<typeof staffTravelItemSchema>;

/** Limits on a quote's file (a booking confirmation or the provider's quote): one PDF, PNG or JPEG. */
export const travelFileRules = {
  maxBytes: 10 * 1024 * 1024,
  contentTypes: ['application/pdf', 'image/png', 'image/jpeg'],
} as const;

/** `GET /deals/{id}/meeting`: the meeting, its check-ins and waivers, and its travel. */
export const meetingWithTravelSchema = meetingViewSchema.extend({
  travel: z.array(travelItemSchema).describe('Travel for the meeting, oldest first'),
});
export type MeetingView = z.infer<typeof meetingWithTravelSchema>;
