import { describe, expect, it } from 'vitest';
import { bitcoinPaymentUri } from './bitcoin-payment-uri.js';

const address = 'bcrt1q2ym7tl8n85l4ktc5g4jte86nvq7k6vp8v6gf8j5rgrwcsu9tcdksgt9zcw';

describe('bitcoinPaymentUri', () => {
  it.each([
    // 150 000 000 sat = 1.5 BTC; 1 sat = 10⁻⁸ BTC; 2 100 000 000 000 000 sat = 21 000 000 BTC.
    [150_000_000n, '1.5'],
    [1n, '0.00000001'],
    [100_000_000n, '1'],
    [123_456_789n, '1.23456789'],
    [2_100_000_000_000_000n, '21000000'],
  ])('writes %i sat as amount=%s', (satoshis, btc) => {
    expect(bitcoinPaymentUri(address, satoshis)).toBe(`bitcoin:${address}?amount=${btc}`);
  });

  it('names only the address when nothing is left to send', () => {
    expect(bitcoinPaymentUri(address, 0n)).toBe(`bitcoin:${address}`);
  });
});
