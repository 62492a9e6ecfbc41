import { z } from 'zod';
import { assetChains, tokenSymbols } from '../assets.js';
import { multiLineText, singleLineText } from '../text/text-rules.js';
import { isAssignedCountryCode } from './country-codes.js';

/** Who the sheet describes. */
export const cisEntityTypes = ['individual', 'company'] as const;
export type CisEntityType = (typeof cisEntityTypes)[number];

export const cisEntityTypeLabels: Record<CisEntityType, string> = {
  individual: 'Individual',
  company: 'Company',
};

/**
 * The settlement window, in whole hours after the terms are agreed: the bounds of the terms'
 * funding deadline, so a party never states a window no deal could have.
 */
export const cisSettlementWindowHours = { min: 1, max: 168 } as const;

/** Trade sizes are whole US dollars; a trillion keeps them exact as JSON numbers. */
export const cisMaxSizeUsd = 1_000_000_000_000;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** "$1,000,000 – $10,000,000", or one amount when both ends are equal. */
export function formatCisTradeSize(sheet: { size_min_usd: number; size_max_usd: number }): string {
  const min = usd.format(sheet.size_min_usd);
  return sheet.size_min_usd === sheet.size_max_usd ? min : `${min} – ${usd.format(sheet.size_max_usd)}`;
}

/** "Within 24 hours". */
export function formatCisSettlementWindow(hours: number): string {
  return `Within ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/** The signed PDF that may come with a sheet: a PDF by content, at most 10 MB (as KYC documents). */
export const cisPdfRules = { maxBytes: 10 * 1024 * 1024, contentType: 'application/pdf' } as const;

/** A list of choices from `options`, each at most once, in the order of `options` (so equal sheets compare equal). */
function choicesOf<T extends string>(options: readonly [T, ...T[]], message: string) {
  return z
    .array(z.enum(options, { error: message }), { error: message })
    .min(1, message)
    .transform((chosen) => options.filter((option) => chosen.includes(option)));
}

const isWholeUsd = (size: unknown): size is number =>
  Number.isSafeInteger(size) && (size as number) >= 0 && (size as number) <= cisMaxSizeUsd;

function wholeUsd(message: string) {
  return z
    .number({ error: message })
    .int(message)
    .min(0, message)
    .max(cisMaxSizeUsd, message)
    .describe('Whole US dollars per trade');
}

const jurisdictionMessage = 'Choose the jurisdiction: a country (ISO 3166-1 alpha-2 code)';
const settlementWindowMessage = `The settlement window is a whole number of hours from ${cisSettlementWindowHours.min} to ${cisSettlementWindowHours.max} (7 days)`;

/**
 * The structured part of a Customer Information Sheet, shared by the web form and the API (JSON or
 * multipart fields; list fields repeat in multipart, numbers arrive there as text and are read first).
 */
export const cisFormSchema = z
  .object({
    legal_name: singleLineText().min(1, 'Enter the legal name').max(200, 'At most 200 characters'),
    entity_type: z.enum(cisEntityTypes, { error: 'Choose the entity type' }),
    jurisdiction: z
      .string({ error: jurisdictionMessage })
      .trim()
      .toUpperCase()
      .refine(isAssignedCountryCode, jurisdictionMessage)
      .describe('ISO 3166-1 alpha-2 country code, e.g. CH'),
    source_of_funds: z
      .string()
      .trim()
      .min(1, 'Describe the source of funds')
      .max(2000, 'At most 2000 characters'),
    assets: choicesOf(tokenSymbols, 'Choose at least one asset'),
    size_min_usd: wholeUsd('Enter the minimum trade size in whole US dollars'),
    size_max_usd: wholeUsd('Enter the maximum trade size in whole US dollars'),
    preferred_chains: choicesOf(assetChains, 'Choose at least one chain'),
    settlement_window_hours: z
      .number({ error: settlementWindowMessage })
      .int(settlementWindowMessage)
      .min(cisSettlementWindowHours.min, settlementWindowMessage)
      .max(cisSettlementWindowHours.max, settlementWindowMessage)
      .describe(
        'Hours after the terms are agreed within which the party can settle: 1 to 168, the bounds of the funding deadline',
      ),
  })
  .refine((sheet) => sheet.size_max_usd >= sheet.size_min_usd, {
    path: ['size_max_usd'],
    message: 'The maximum trade size must be at least the minimum',
    // Checked as soon as both sizes are valid, even while other fields are still wrong.
    when: ({ value }) => {
      const sizes = value as { size_min_usd?: unknown; size_max_usd?: unknown };
      return isWholeUsd(sizes.size_min_usd) && isWholeUsd(sizes.size_max_usd);
    },
  });

export type CisFormInput = z.input<typeof cisFormSchema>;
export type CisForm = z.output<typeof cisFormSchema>;

/** A sheet as its owner, or a deal's parties once attached, see it. */
export const cisSheetSchema = z.object({
  id: z.uuid(),
  legal_name: z.string(),
  entity_type: z.enum(cisEntityTypes),
  jurisdiction: z.string().describe('ISO 3166-1 alpha-2 country code'),
  source_of_funds: z.string(),
  assets: z.array(z.enum(tokenSymbols)),
  size_min_usd: z.number().int().describe('Whole US dollars per trade'),
  size_max_usd: z.number().int().describe('Whole US dollars per trade'),
  preferred_chains: z.array(z.enum(assetChains)),
  settlement_window_hours: z.number().int().describe('Hours after the terms are agreed'),
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

/**
 * The CIS exchange as one party of the deal sees it: the counterparty's sheet is personal data shown
 * only once both have attached theirs (ADR 022), so until the viewer has attached one the
 * counterparty's side reads null, as if nothing were there.
 */
export function dealCisSeenBy(exchange: DealCis, viewer: 'buyer' | 'seller'): DealCis {
  // The viewer's own side is null too in that case, so nothing of the exchange is left.
  return exchange[viewer] ? exchange : { buyer: null, seller: null };
}

export const attachDealCisSchema = z.object({ cis_id: z.uuid() });

/**
 * Approving the counterparty's CIS names the sheet the reviewer read: a pending or rejected sheet may
 * be replaced meanwhile, and the review must not pass to a sheet nobody has seen.
 */
export const approveDealCisSchema = z.object({
  cis_id: z.uuid().describe('The id of the counterparty’s sheet you reviewed (the one attached now)'),
});

/** Rejecting names the sheet too, with what is wrong with it. */
export const rejectDealCisSchema = approveDealCisSchema.extend({
  comment: multiLineText().min(1, 'Say what is wrong with the sheet').max(2000, 'At most 2000 characters'),
});
