import { z } from 'zod';
import { assetChains, tokenSymbols } from '../assets.js';

/** Who the sheet describes. */
export const cisEntityTypes = ['individual', 'company', 'trust', 'fund', 'other'] as const;
export type CisEntityType = (typeof cisEntityTypes)[number];

export const cisEntityTypeLabels: Record<CisEntityType, string> = {
  individual: 'Individual',
  company: 'Company',
  trust: 'Trust',
  fund: 'Fund',
  other: 'Other',
};

/** The usual size of one trade, in US dollars. */
export const cisSizeRanges = ['under_100k', '100k_to_1m', '1m_to_10m', 'over_10m'] as const;
export type CisSizeRange = (typeof cisSizeRanges)[number];

export const cisSizeRangeLabels: Record<CisSizeRange, string> = {
  under_100k: 'Under $100,000',
  '100k_to_1m': '$100,000 – $1,000,000',
  '1m_to_10m': '$1,000,000 – $10,000,000',
  over_10m: 'Over $10,000,000',
};

/** How soon after terms are agreed the party expects to settle. */
export const cisSettlementWindows = ['same_day', 'within_3_days', 'within_week'] as const;
export type CisSettlementWindow = (typeof cisSettlementWindows)[number];

export const cisSettlementWindowLabels: Record<CisSettlementWindow, string> = {
  same_day: 'Same day',
  within_3_days: 'Within 3 days',
  within_week: 'Within a week',
};

/** The signed PDF that may come with a sheet: a PDF by content, at most 10 MB (as KYC documents). */
export const cisPdfRules = { maxBytes: 10 * 1024 * 1024, contentType: 'application/pdf' } as const;

/** A list of choices from `options`, each at most once, in the order of `options` (so equal sheets compare equal). */
function choicesOf<T extends string>(options: readonly [T, ...T[]], message: string) {
  return z
    .array(z.enum(options, { error: message }), { error: message })
    .min(1, message)
    .transform((chosen) => options.filter((option) => chosen.includes(option)));
}

/**
 * The structured part of a Customer Information Sheet, shared by the web form and the API (JSON or
 * multipart fields; list fields repeat in multipart).
 */
export const cisFormSchema = z.object({
  legal_name: z.string().trim().min(1, 'Enter the legal name').max(200, 'At most 200 characters'),
  entity_type: z.enum(cisEntityTypes, { error: 'Choose the entity type' }),
  jurisdiction: z
    .string()
    .trim()
    .min(1, 'Enter the jurisdiction (country code or name)')
    .max(100, 'At most 100 characters'),
  source_of_funds: z
    .string()
    .trim()
    .min(1, 'Describe the source of funds')
    .max(2000, 'At most 2000 characters'),
  assets: choicesOf(tokenSymbols, 'Choose at least one asset'),
  size_range: z.enum(cisSizeRanges, { error: 'Choose the usual trade size' }),
  preferred_chains: choicesOf(assetChains, 'Choose at least one chain'),
  settlement_window: z.enum(cisSettlementWindows, { error: 'Choose the settlement window' }),
});

export type CisFormInput = z.input<typeof cisFormSchema>;
export type CisForm = z.output<typeof cisFormSchema>;

/** A sheet as its owner, or a deal's parties once attached, see it. */
export const cisSheetSchema = z.object({
  id: z.uuid(),
  legal_name: z.string(),
  entity_type: z.enum(cisEntityTypes),
  jurisdiction: z.string(),
  source_of_funds: z.string(),
  assets: z.array(z.enum(tokenSymbols)),
  size_range: z.enum(cisSizeRanges),
  preferred_chains: z.array(z.enum(assetChains)),
  settlement_window: z.enum(cisSettlementWindows),
  has_pdf: z.boolean(),
  created_at: z.string(),
});

export type CisSheet = z.infer<typeof cisSheetSchema>;

export const cisReviewStatuses = ['pending', 'approved', 'rejected'] as const;
export type CisReviewStatus = (typeof cisReviewStatuses)[number];

/** One party's CIS on a deal and the counterparty's review of it. */
export const dealCisEntrySchema = z.object({
  cis: cisSheetSchema,
  status: z.enum(cisReviewStatuses),
  review_comment: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  attached_at: z.string(),
});

/** The CIS exchange of a deal: each party's attached sheet, or null while it has none. */
export const dealCisSchema = z.object({
  buyer: dealCisEntrySchema.nullable(),
  seller: dealCisEntrySchema.nullable(),
});

export type DealCisEntry = z.infer<typeof dealCisEntrySchema>;
export type DealCis = z.infer<typeof dealCisSchema>;

export const attachDealCisSchema = z.object({ cis_id: z.uuid() });

export const rejectDealCisSchema = z.object({
  comment: z.string().trim().min(1, 'Say what is wrong with the sheet').max(2000, 'At most 2000 characters'),
});
