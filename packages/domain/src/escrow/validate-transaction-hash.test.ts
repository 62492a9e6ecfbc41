import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { escrowFundRequestSchema } from './escrow-api.js';
import { validateTransactionHash } from './validate-transaction-hash.js';

const bytes = (length: number, fill: number) => new Uint8Array(length).fill(fill);

describe('validateTransactionHash', () => {
  it.each([
    ['ETH', `0x${'ab'.repeat(32)}`],
    ['ETH', `0x${'AB'.repeat(32)}`],
    ['ETH', '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060'],
    ['BTC', '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'],
    ['BTC', '4A5E1E4BAAB89F3A32518A88C31BC87F618F76673E2CC77AB2127B7AFDEDA33B'],
    ['SOL', base58.encode(bytes(64, 3))],
    // 64 zero bytes are 64 ones; 64 bytes of 0xff the longest signature, 88 characters.
    ['SOL', '1'.repeat(64)],
    ['SOL', base58.encode(bytes(64, 0xff))],
  ] as const)('accepts a %s transaction %s', (chain, hash) => {
    expect(validateTransactionHash(chain, hash)).toEqual({ ok: true });
  });

  it.each([
    ['ETH', 'not-a-hash'],
    ['ETH', '0xabc'],
    ['ETH', 'ab'.repeat(32)],
    ['ETH', `0X${'ab'.repeat(32)}`],
    ['ETH', `0x${'ab'.repeat(32)}0`],
    ['ETH', `0x${'ab'.repeat(31)}zz`],
    ['ETH', ` 0x${'ab'.repeat(32)}`],
    ['ETH', base58.encode(bytes(64, 3))],
    ['BTC', `0x${'ab'.repeat(32)}`],
    ['BTC', 'ab'.repeat(31)],
    ['BTC', `${'ab'.repeat(31)}gg`],
    ['BTC', `${'ab'.repeat(32)}\n`],
    ['SOL', 'x'],
    ['SOL', '0OIl'],
    ['SOL', base58.encode(bytes(63, 3))],
    ['SOL', base58.encode(bytes(65, 3))],
    ['SOL', '1'.repeat(63)],
    ['SOL', 'ab'.repeat(64)],
    ['SOL', `0x${'ab'.repeat(32)}`],
    ['SOL', `${base58.encode(bytes(64, 3))} `],
  ] as const)('refuses a %s transaction %j, saying what it should be', (chain, hash) => {
    const check = validateTransactionHash(chain, hash);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(/hex digits|base58/);
  });
});

describe('escrowFundRequestSchema', () => {
  const body = { deal_id: '00000000-0000-4000-8000-000000000000', amount: '1' };

  it('takes each chain’s own transaction hash', () => {
    for (const [chain, transaction_hash] of [
      ['ETH', `0x${'ab'.repeat(32)}`],
      ['BTC', 'ab'.repeat(32)],
      ['SOL', base58.encode(bytes(64, 3))],
    ]) {
      expect(escrowFundRequestSchema.safeParse({ ...body, chain, transaction_hash }).success).toBe(true);
    }
  });

  it('refuses another chain’s hash, or none at all, at /transaction_hash', () => {
    for (const [chain, transaction_hash] of [
      ['ETH', 'not-a-hash'],
      ['ETH', 'ab'.repeat(32)],
      ['BTC', `0x${'ab'.repeat(32)}`],
      ['SOL', 'x'],
      ['SOL', `0x${'ab'.repeat(32)}`],
    ]) {
      const parsed = escrowFundRequestSchema.safeParse({ ...body, chain, transaction_hash });
      expect(parsed.success, `${chain} ${transaction_hash}`).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([['transaction_hash']]);
    }
  });
});
