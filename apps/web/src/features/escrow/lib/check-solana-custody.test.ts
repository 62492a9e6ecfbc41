import { describe, expect, it } from 'vitest';
import { solanaAccounts as a, solCustody, usdcCustody } from '@/testing/solana-fixtures.js';
import { checkSolanaCustody } from './check-solana-custody.js';

describe('checkSolanaCustody', () => {
  it('recomputes a token leg’s deposit address as the multisig’s associated token account', () => {
    expect(checkSolanaCustody(a.usdcTokenAccount, usdcCustody, a.usdc)).toEqual({ ok: true });
    expect(checkSolanaCustody(a.usdcTokenAccount, usdcCustody)).toEqual({ ok: true });
    const elsewhere = { ...usdcCustody, token_account: a.adaUsdcAccount };
    expect(checkSolanaCustody(a.adaUsdcAccount, elsewhere)).toEqual({
      ok: false,
      reason: 'The deposit address is not the multisig’s token account for this token.',
    });
  });

  it('wants Solana Pay to send a token to the multisig, and SOL to the deposit account itself', () => {
    expect(
      checkSolanaCustody(a.usdcTokenAccount, { ...usdcCustody, solana_pay_recipient: a.usdcTokenAccount }),
    ).toEqual({
      ok: false,
      reason: 'The payment request does not send to the multisig.',
    });
    expect(checkSolanaCustody(a.wsolAccount, solCustody, null)).toEqual({ ok: true });
    expect(checkSolanaCustody(a.wsolAccount, { ...solCustody, solana_pay_recipient: a.multisig })).toEqual({
      ok: false,
      reason: 'The payment request does not send to the deposit address.',
    });
  });

  it('refuses another deposit address, another mint, and a multisig that is not 2 of 3 distinct keys', () => {
    expect(checkSolanaCustody(a.wsolAccount, usdcCustody).ok).toBe(false);
    expect(checkSolanaCustody(a.usdcTokenAccount, usdcCustody, a.nonce)).toEqual({
      ok: false,
      reason: 'The leg’s token is not the one Covenant lists for this symbol.',
    });
    expect(checkSolanaCustody(a.usdcTokenAccount, { ...usdcCustody, threshold: 1 }).ok).toBe(false);
    const twice = { ...usdcCustody, public_keys: { ...usdcCustody.public_keys, platform: a.ada } };
    expect(checkSolanaCustody(a.usdcTokenAccount, twice)).toEqual({
      ok: false,
      reason: 'The multisig does not need 2 of 3 distinct keys.',
    });
  });
});
