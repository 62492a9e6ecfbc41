import { describe, expect, it } from 'vitest';
import {
  approveDealCisSchema,
  cisFormSchema,
  type DealCis,
  type DealCisEntry,
  dealCisSeenBy,
  formatCisSettlementWindow,
  formatCisTradeSize,
  rejectDealCisSchema,
} from './cis.js';

const sheet = {
  legal_name: ' Aurelia Holdings Ltd ',
  entity_type: 'company',
  jurisdiction: ' ch ',
  source_of_funds: 'Retained trading profits',
  assets: ['USDT', 'BTC', 'USDT'],
  size_min_usd: 1_000_000,
  size_max_usd: 10_000_000,
  preferred_chains: ['SOL', 'BTC'],
  settlement_window_hours: 24,
};

function messagesOf(input: object): Record<string, string> {
  const result = cisFormSchema.safeParse(input);
  expect(result.success).toBe(false);
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('/'), issue.message]),
  );
}

describe('cisFormSchema', () => {
  it('trims text, upper-cases the country code and keeps each choice once, in the product order', () => {
    expect(cisFormSchema.parse(sheet)).toEqual({
      ...sheet,
      legal_name: 'Aurelia Holdings Ltd',
      jurisdiction: 'CH',
      assets: ['BTC', 'USDT'],
      preferred_chains: ['BTC', 'SOL'],
    });
  });

  it('refuses empty text, unknown choices and empty lists, naming each field once', () => {
    expect(
      messagesOf({
        ...sheet,
        legal_name: '  ',
        jurisdiction: '',
        entity_type: 'trust',
        assets: ['DOGE'],
        preferred_chains: [],
        size_min_usd: undefined,
        size_max_usd: '10000000',
        settlement_window_hours: undefined,
      }),
    ).toEqual({
      legal_name: 'Enter the legal name',
      jurisdiction: 'Choose the jurisdiction: a country (ISO 3166-1 alpha-2 code)',
      entity_type: 'Choose the entity type',
      'assets/0': 'Choose at least one asset',
      preferred_chains: 'Choose at least one chain',
      size_min_usd: 'Enter the minimum trade size in whole US dollars',
      size_max_usd: 'Enter the maximum trade size in whole US dollars',
      settlement_window_hours: 'The settlement window is a whole number of hours from 1 to 168 (7 days)',
    });
  });

  it('takes assigned ISO 3166-1 alpha-2 codes only', () => {
    for (const code of ['GB', 'us', 'AX', 'SS', 'BQ']) {
      expect(cisFormSchema.safeParse({ ...sheet, jurisdiction: code }).success, code).toBe(true);
    }
    // Reserved or user-assigned (EU, UK, XK, ZZ), three letters, a name.
    for (const code of ['EU', 'UK', 'XK', 'ZZ', 'CHE', 'Switzerland', 'C']) {
      expect(messagesOf({ ...sheet, jurisdiction: code }), code).toHaveProperty('jurisdiction');
    }
  });

  it('takes whole dollars from 0, and refuses a maximum below the minimum on size_max_usd', () => {
    expect(cisFormSchema.parse({ ...sheet, size_min_usd: 0, size_max_usd: 0 })).toMatchObject({
      size_min_usd: 0,
      size_max_usd: 0,
    });
    expect(messagesOf({ ...sheet, size_min_usd: -1, size_max_usd: 1.5 })).toEqual({
      size_min_usd: 'Enter the minimum trade size in whole US dollars',
      size_max_usd: 'Enter the maximum trade size in whole US dollars',
    });
    expect(messagesOf({ ...sheet, size_min_usd: 10_000_001 })).toEqual({
      size_max_usd: 'The maximum trade size must be at least the minimum',
    });
    // Said while other fields are still wrong, so the form shows every problem at once.
    expect(messagesOf({ ...sheet, legal_name: '', size_min_usd: 10_000_001 })).toEqual({
      legal_name: 'Enter the legal name',
      size_max_usd: 'The maximum trade size must be at least the minimum',
    });
    expect(messagesOf({ ...sheet, size_max_usd: 1_000_000_000_001 })).toEqual({
      size_max_usd: 'Enter the maximum trade size in whole US dollars',
    });
  });

  it('takes a settlement window of 1 to 168 whole hours, the funding deadline bounds', () => {
    for (const hours of [1, 168]) {
      expect(cisFormSchema.safeParse({ ...sheet, settlement_window_hours: hours }).success).toBe(true);
    }
    for (const hours of [0, 169, 2.5, '24']) {
      expect(messagesOf({ ...sheet, settlement_window_hours: hours })).toHaveProperty(
        'settlement_window_hours',
      );
    }
  });
});

describe('formatCisTradeSize and formatCisSettlementWindow', () => {
  it('write dollars with separators and hours in words', () => {
    expect(formatCisTradeSize({ size_min_usd: 1_000_000, size_max_usd: 10_000_000 })).toBe(
      '$1,000,000 – $10,000,000',
    );
    expect(formatCisTradeSize({ size_min_usd: 0, size_max_usd: 0 })).toBe('$0');
    expect(formatCisSettlementWindow(24)).toBe('Within 24 hours');
    expect(formatCisSettlementWindow(1)).toBe('Within 1 hour');
  });
});

describe('rejectDealCisSchema', () => {
  const cis_id = '0b9a5c7e-3f2d-4c1a-9e8b-7d6c5b4a3f21';

  it('needs a comment of 1 to 2000 characters', () => {
    expect(rejectDealCisSchema.safeParse({ cis_id, comment: ' ' }).success).toBe(false);
    expect(rejectDealCisSchema.safeParse({ cis_id, comment: 'x'.repeat(2001) }).success).toBe(false);
    expect(rejectDealCisSchema.parse({ cis_id, comment: ' Wrong canton ' })).toEqual({
      cis_id,
      comment: 'Wrong canton',
    });
  });

  it('names the sheet reviewed, like an approval', () => {
    expect(rejectDealCisSchema.safeParse({ comment: 'Wrong canton' }).success).toBe(false);
    expect(approveDealCisSchema.safeParse({}).success).toBe(false);
    expect(approveDealCisSchema.safeParse({ cis_id: 'not-a-uuid' }).success).toBe(false);
    expect(approveDealCisSchema.parse({ cis_id })).toEqual({ cis_id });
  });
});

describe('dealCisSeenBy', () => {
  const entry = { status: 'pending' } as DealCisEntry;

  it('hides the counterparty’s sheet from a party that has attached none', () => {
    const onlySeller: DealCis = { buyer: null, seller: entry };
    expect(dealCisSeenBy(onlySeller, 'buyer')).toEqual({ buyer: null, seller: null });
    expect(dealCisSeenBy(onlySeller, 'seller')).toEqual(onlySeller);
  });

  it('shows both sheets to both once both are attached', () => {
    const both: DealCis = { buyer: entry, seller: entry };
    expect(dealCisSeenBy(both, 'buyer')).toEqual(both);
    expect(dealCisSeenBy(both, 'seller')).toEqual(both);
  });
});
