import { z } from 'zod';
import { dealCisSchema } from '../cis/cis.js';
import { dealAuditTrailSchema, dealSchema, dealStatuses } from '../deals/deal.js';
import { meetingViewSchema } from '../deals/meeting.js';
import { escrowLegNames } from '../escrow/escrow-api.js';
import { disputeSchema, disputeStatuses } from './dispute.js';

const partySummary = z.object({ id: z.uuid(), username: z.string().nullable() });

/** A row of the mediators' queue: the dispute with enough of its deal to pick a case. */
export const staffDisputeSummarySchema = z.object({
  id: z.uuid(),
  status: z.enum(disputeStatuses),
  reason: z.string(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  mediator: partySummary.nullable(),
  deal: z.object({
    id: z.uuid(),
    status: z.enum(dealStatuses),
    asset_chain: z.string(),
    asset_symbol: z.string(),
    asset_amount: z.string(),
    stable_chain: z.string(),
    stable_symbol: z.string(),
    stable_amount: z.string(),
    buyer: partySummary,
    seller: partySummary,
  }),
});
export type StaffDisputeSummary = z.infer<typeof staffDisputeSummarySchema>;

export const staffDisputeQueueQuerySchema = z.object({ status: z.enum(disputeStatuses).optional() });

/** Everything a mediator reads before deciding: the deal, both CIS, every terms version, the messages and the audit trail. */
export const staffDisputeCaseSchema = z.object({
  dispute: disputeSchema,
  deal: dealSchema.omit({ counterparty_id: true }),
  cis: dealCisSchema,
  terms_versions: z.array(
    z.object({
      version: z.number().int(),
      proposed_by: z.uuid(),
      terms: z.record(z.string(), z.unknown()),
      created_at: z.string(),
    }),
  ),
  messages: z.array(
    z.object({ id: z.uuid(), author_id: z.uuid(), body: z.string(), created_at: z.string() }),
  ),
  audit: dealAuditTrailSchema,
  meeting: meetingViewSchema.describe('The meeting the terms require, with check-ins and their positions'),
  escrow_opened: z
    .boolean()
    .describe(
      'Whether the deal’s escrow was opened; when not, any decision cancels the deal and moves no money',
    ),
  escrow_short_legs: z
    .array(
      z.object({
        leg: z.enum(escrowLegNames),
        required: z.string().describe('The leg’s amount, in base units'),
        received: z.string().describe('Its confirmed deposits, in base units'),
      }),
    )
    .describe(
      'The legs of the opened escrow holding less than their amount (empty when every leg is funded, or ' +
        'no escrow was opened). While any is listed only a refund can be decided: release and split ' +
        'answer 422 INSUFFICIENT_BALANCE, since they would pay one side out of a deposit the other never matched',
    ),
  escrow_travel: z
    .array(
      z.object({
        leg: z.enum(escrowLegNames),
        paid: z.string().describe('Travel paid out of the leg, or on its way, in base units'),
        charged_to_receiver: z
          .string()
          .describe('The part of it the terms (travel_paid_by) put on the leg’s receiver, in base units'),
        held: z
          .string()
          .describe('What the leg holds once that travel is out: its confirmed deposits less it'),
      }),
    )
    .describe(
      'The legs travel for the meeting was paid out of (empty when none). A split’s share for a leg’s ' +
        'receiver cannot exceed `held` (422 INSUFFICIENT_BALANCE, split_beyond_travel); a refund returns ' +
        '`held` to the depositor, who then bears the travel, its receiver’s share included',
    ),
  escrow_decide_by: z
    .string()
    .nullable()
    .describe(
      'When a release or split must be decided by: an hour before the earliest on-chain deadline of the ' +
        'escrow’s legs (Ethereum), after which a party may take its own leg back, so the legs can no ' +
        'longer be paid against each other. From then on only a refund can be decided (release and split ' +
        'answer 409 CONFLICT). Null when no escrow was opened or no leg has such a deadline',
    ),
});
export type StaffDisputeCase = z.infer<typeof staffDisputeCaseSchema>;
