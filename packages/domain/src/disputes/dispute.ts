import { z } from 'zod';
import { multiLineText } from '../text/text-rules.js';

/** Limits on a dispute's evidence: like KYC documents (PDF, PNG or JPEG by content), up to five per upload. */
export const disputeEvidenceRules = {
  maxFiles: 5,
  maxBytes: 10 * 1024 * 1024,
  contentTypes: ['application/pdf', 'image/png', 'image/jpeg'],
} as const;

/** Why a party disputes the deal: read by the mediator, recorded in the audit trail. */
export const disputeReasonSchema = multiLineText()
  .min(20, 'Describe the problem in at least 20 characters')
  .max(4000, 'Keep the reason under 4000 characters');

/** `POST /deals/{id}/disputes` as JSON (no evidence), and the text fields of its multipart form. */
export const openDisputeSchema = z.object({ reason: disputeReasonSchema });
export type OpenDispute = z.infer<typeof openDisputeSchema>;

export const disputeStatuses = ['open', 'decided'] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];

export const disputeDecisions = ['release', 'refund', 'split'] as const;
export type DisputeDecision = (typeof disputeDecisions)[number];

/**
 * What a decision does: `escrow_payout`, the escrow pays each leg out as decided; `deal_cancelled`,
 * the deal was disputed before its escrow opened, so the decision cancels it and no money moves
 * (none was deposited).
 */
export const disputeEffects = ['escrow_payout', 'deal_cancelled'] as const;
export type DisputeEffect = (typeof disputeEffects)[number];

const baseUnitAmount = z
  .string()
  .regex(/^(0|[1-9]\d{0,77})$/, 'a whole number of base units, e.g. "50000000"');

/** Base-unit amounts of one leg going to each party. */
export const legPayoutSchema = z.object({ buyer: baseUnitAmount, seller: baseUnitAmount });

/** Who gets what of each leg: the asset leg (deposited by the seller) and the stable leg (by the buyer). */
export const disputeAmountsSchema = z.object({ asset: legPayoutSchema, stable: legPayoutSchema });
export type DisputeAmounts = z.infer<typeof disputeAmountsSchema>;

/** A mediator's decision: release per terms, refund both, or a split per leg, always with a rationale. */
export const disputeDecisionSchema = z
  .object({
    decision: z.enum(disputeDecisions),
    split: disputeAmountsSchema.optional().describe('Required for a split, refused otherwise'),
    rationale: multiLineText()
      .min(30, 'Explain the decision in at least 30 characters')
      .max(8000, 'Keep the rationale under 8000 characters'),
  })
  .superRefine((value, context) => {
    if (value.decision === 'split' && !value.split) {
      context.addIssue({ code: 'custom', path: ['split'], message: 'A split needs the amounts per leg' });
    }
    if (value.decision !== 'split' && value.split) {
      context.addIssue({ code: 'custom', path: ['split'], message: 'Only a split takes amounts' });
    }
  });
export type DisputeDecisionRequest = z.infer<typeof disputeDecisionSchema>;

export const disputeEvidenceSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  uploaded_by: z.uuid(),
  created_at: z.string(),
});
export type DisputeEvidence = z.infer<typeof disputeEvidenceSchema>;

/** A dispute as its deal's parties and the mediators see it. */
export const disputeSchema = z.object({
  id: z.uuid(),
  deal_id: z.uuid(),
  status: z.enum(disputeStatuses),
  reason: z.string(),
  opened_by: z.uuid(),
  status_before: z.string().describe('The deal’s status when the dispute was opened'),
  mediator_id: z.uuid().nullable(),
  evidence: z.array(disputeEvidenceSchema),
  decision: z.enum(disputeDecisions).nullable(),
  amounts: disputeAmountsSchema
    .nullable()
    .describe(
      'Base units of each leg to each party, once decided; null when the decision cancelled the deal',
    ),
  effect: z
    .enum(disputeEffects)
    .nullable()
    .describe(
      'What the decision does, once decided: `escrow_payout` (the escrow pays each leg out as decided) or ' +
        '`deal_cancelled` (the deal was disputed before its escrow opened: the decision cancels it and no ' +
        'money moves, since none was deposited)',
    ),
  rationale: z.string().nullable(),
  decided_by: z.uuid().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
});
export type Dispute = z.infer<typeof disputeSchema>;
