import { describe, expect, it } from 'vitest';
import { travelQuoteRequestSchema, travelRequestSchema } from './travel.js';

const quote = {
  provider: 'Hotel Baur au Lac',
  description: 'Two nights, double room',
  amount: '980000000',
  payee_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
};

describe('travelRequestSchema', () => {
  it('takes a kind, a traveller and trimmed multi-line details up to 2000 characters', () => {
    expect(
      travelRequestSchema.parse({
        kind: 'ground',
        traveller: 'buyer',
        details: ' Airport → venue\n2 people ',
      }),
    ).toEqual({ kind: 'ground', traveller: 'buyer', details: 'Airport → venue\n2 people' });
    for (const bad of [
      { kind: 'train', traveller: 'buyer', details: 'x' },
      { kind: 'hotel', traveller: 'both', details: 'x' },
      { kind: 'hotel', traveller: 'buyer', details: ' \n ' },
      { kind: 'hotel', traveller: 'buyer', details: 'x'.repeat(2001) },
      { kind: 'hotel', traveller: 'buyer', details: 'escape \u001b[31m' },
    ]) {
      expect(travelRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('travelQuoteRequestSchema', () => {
  it('takes a positive whole number of base units only', () => {
    expect(travelQuoteRequestSchema.parse(quote).amount).toBe('980000000');
    expect(travelQuoteRequestSchema.parse({ ...quote, amount: '1' }).amount).toBe('1');
    expect(travelQuoteRequestSchema.parse({ ...quote, amount: '9'.repeat(78) }).amount).toHaveLength(78);
    for (const amount of ['0', '-1', '1.5', '01', ' 1', '1e6', '9'.repeat(79), '']) {
      expect(travelQuoteRequestSchema.safeParse({ ...quote, amount }).success, amount).toBe(false);
    }
  });

  it('wants a single-line provider and a description', () => {
    expect(travelQuoteRequestSchema.safeParse({ ...quote, provider: 'Swiss\nAir' }).success).toBe(false);
    expect(travelQuoteRequestSchema.safeParse({ ...quote, description: '' }).success).toBe(false);
    expect(travelQuoteRequestSchema.safeParse({ ...quote, payee_address: '' }).success).toBe(false);
  });
});
