import { describe, expect, it } from 'vitest';
import { cisFormSchema, rejectDealCisSchema } from './cis.js';

const sheet = {
  legal_name: ' Aurelia Holdings Ltd ',
  entity_type: 'company',
  jurisdiction: 'Switzerland',
  source_of_funds: 'Retained trading profits',
  assets: ['USDT', 'BTC', 'USDT'],
  size_range: 'over_10m',
  preferred_chains: ['SOL', 'BTC'],
  settlement_window: 'within_week',
};

describe('cisFormSchema', () => {
  it('trims text and keeps each choice once, in the product order', () => {
    expect(cisFormSchema.parse(sheet)).toEqual({
      ...sheet,
      legal_name: 'Aurelia Holdings Ltd',
      assets: ['BTC', 'USDT'],
      preferred_chains: ['BTC', 'SOL'],
    });
  });

  it('refuses empty text, unknown choices and empty lists, naming each field', () => {
    const result = cisFormSchema.safeParse({
      ...sheet,
      legal_name: '  ',
      jurisdiction: '',
      entity_type: 'pirate',
      assets: ['DOGE'],
      preferred_chains: [],
      size_range: '1m-10m',
      settlement_window: undefined,
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(
      (result.error?.issues ?? []).map((issue) => [issue.path.join('/'), issue.message]),
    );
    expect(messages).toEqual({
      legal_name: 'Enter the legal name',
      jurisdiction: 'Enter the jurisdiction (country code or name)',
      entity_type: 'Choose the entity type',
      'assets/0': 'Choose at least one asset',
      preferred_chains: 'Choose at least one chain',
      size_range: 'Choose the usual trade size',
      settlement_window: 'Choose the settlement window',
    });
  });
});

describe('rejectDealCisSchema', () => {
  it('needs a comment of 1 to 2000 characters', () => {
    expect(rejectDealCisSchema.safeParse({ comment: ' ' }).success).toBe(false);
    expect(rejectDealCisSchema.safeParse({ comment: 'x'.repeat(2001) }).success).toBe(false);
    expect(rejectDealCisSchema.parse({ comment: ' Wrong canton ' })).toEqual({ comment: 'Wrong canton' });
  });
});
