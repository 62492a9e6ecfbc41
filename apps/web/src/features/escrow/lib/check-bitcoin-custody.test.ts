import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { p2ms, p2wsh } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import type { LegCustody } from '../api/escrow-leg-signing.js';
import { checkBitcoinCustody } from './check-bitcoin-custody.js';

const regtest = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const key = (n: number) => secp256k1.getPublicKey(hex.decode(n.toString(16).padStart(64, '0')), true);
const [buyer, seller, platform] = [1, 2, 3].map(key) as [Uint8Array, Uint8Array, Uint8Array];

/** A leg's custody and deposit address as the server builds them: BIP-67 sorted keys, 2-of-3, P2WSH. */
function leg(m = 2) {
  const sorted = [buyer, seller, platform].sort((a, b) => hex.encode(a).localeCompare(hex.encode(b)));
  const payment = p2wsh(p2ms(m, sorted), regtest);
  const custody: LegCustody = {
    witness_script: hex.encode(payment.witnessScript!),
    public_keys: { buyer: hex.encode(buyer), seller: hex.encode(seller), platform: hex.encode(platform) },
  };
  return { address: payment.address!, custody };
}

describe('checkBitcoinCustody', () => {
  it('recomputes the deposit address from the three keys and the witness script', () => {
    const { address, custody } = leg();
    expect(checkBitcoinCustody(address, custody)).toEqual({ ok: true });
  });

  it('refuses an address that is not the script’s', () => {
    const { custody } = leg();
    const other = p2wsh(p2ms(2, [buyer, seller, key(4)]), regtest).address!;
    expect(checkBitcoinCustody(other, custody)).toEqual({
      ok: false,
      reason: 'The deposit address is not the P2WSH address of this witness script.',
    });
  });

  it('refuses a script that is not 2-of-3 over the keys shown', () => {
    const { address, custody } = leg(1);
    expect(checkBitcoinCustody(address, custody).ok).toBe(false);
    const twoOfThree = leg();
    const swapped = {
      ...twoOfThree.custody,
      public_keys: { ...twoOfThree.custody.public_keys, buyer: hex.encode(key(4)) },
    };
    expect(checkBitcoinCustody(twoOfThree.address, swapped)).toEqual({
      ok: false,
      reason: 'The witness script is not a 2-of-3 multisig over these three keys.',
    });
  });
});
