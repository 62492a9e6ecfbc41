import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { p2ms, p2wpkh, p2wsh, SigHash, Transaction } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import type { PsbtSummary } from '../api/escrow-leg-signing.js';
import { signEscrowPsbt } from './sign-escrow-psbt.js';

// Three fixed keys (buyer, seller, platform): private keys 1, 2 and 3 padded to 32 bytes.
const privateKey = (n: number) => hex.decode(n.toString(16).padStart(64, '0'));
const [buyer, seller, platform] = [1, 2, 3].map(privateKey) as [Uint8Array, Uint8Array, Uint8Array];
const publicKey = (key: Uint8Array) => secp256k1.getPublicKey(key, true);
const regtest = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef };
const fundingTxid = hex.decode('aa'.repeat(32));

/** The escrow of a leg: 2-of-3 P2WSH over the three keys in BIP-67 (sorted) order. */
function escrowScript() {
  const keys = [buyer, seller, platform]
    .map(publicKey)
    .sort((a, b) => hex.encode(a).localeCompare(hex.encode(b)));
  return p2wsh(p2ms(2, keys), regtest);
}

/** A payout of two deposits of the leg (150 000 000 + 50 000 sat) to the buyer and the fee address. */
function payoutPsbt(options: { witnessScript?: boolean } = {}): string {
  const escrow = escrowScript();
  const transaction = new Transaction();
  for (const [index, amount] of [150_000_000n, 50_000n].entries()) {
    transaction.addInput({
      txid: fundingTxid,
      index,
      witnessUtxo: { script: escrow.script, amount },
      ...(options.witnessScript === false ? {} : { witnessScript: escrow.witnessScript }),
    });
  }
  transaction.addOutputAddress(p2wpkh(publicKey(buyer), regtest).address!, 150_033_000n, regtest);
  transaction.addOutputAddress(p2wpkh(publicKey(platform), regtest).address!, 15_000n, regtest);
  return base64.encode(transaction.toPSBT());
}

const buyerAddress = p2wpkh(publicKey(buyer), regtest).address!;
const feeAddress = p2wpkh(publicKey(platform), regtest).address!;

/**
 * What the page shows for `payoutPsbt()`: 150 033 000 sat to the buyer, 15 000 to the fee address,
 * and the network fee (150 000 000 + 50 000) − (150 033 000 + 15 000) = 2 000 sat.
 */
function shown(changes: Partial<PsbtSummary> = {}): PsbtSummary {
  return {
    outputs: [
      { kind: 'payout', to: buyerAddress, amount: '150033000' },
      { kind: 'fee', to: feeAddress, amount: '15000' },
    ],
    network_fee: '2000',
    refund_network_fee: '0',
    fee_rate_sat_vb: 10,
    dust_folded: [],
    ...changes,
  };
}

describe('signEscrowPsbt', () => {
  it("adds the seller's SIGHASH_ALL signature to every input, one that verifies over the input's BIP-143 digest", () => {
    const signed = Transaction.fromPSBT(base64.decode(signEscrowPsbt(payoutPsbt(), seller, shown())));
    const escrow = escrowScript();
    for (const [index, amount] of [150_000_000n, 50_000n].entries()) {
      const input = signed.getInput(index);
      expect(input.partialSig).toHaveLength(1);
      const [key, signature] = input.partialSig![0]!;
      expect(hex.encode(key)).toBe(hex.encode(publicKey(seller)));
      // A DER signature followed by its sighash byte.
      expect(signature.at(-1)).toBe(SigHash.ALL);
      const digest = signed.preimageWitnessV0(index, escrow.witnessScript!, SigHash.ALL, amount);
      expect(
        secp256k1.verify(signature.slice(0, -1), digest, publicKey(seller), {
          prehash: false,
          format: 'der',
        }),
      ).toBe(true);
    }
    // With the platform's signature as well, 2 of 3, the transaction finalizes.
    signed.sign(platform);
    signed.finalize();
    expect(signed.isFinal).toBe(true);
  });

  it('refuses a PSBT whose inputs carry no witness script', () => {
    expect(() => signEscrowPsbt(payoutPsbt({ witnessScript: false }), seller, shown())).toThrow(
      'Input 0 carries no witness UTXO or witness script, so it was not signed.',
    );
  });

  it('refuses a PSBT whose witness script does not name the key', () => {
    const stranger = privateKey(4);
    expect(() => signEscrowPsbt(payoutPsbt(), stranger, shown())).toThrow(
      'Input 0 is not an escrow your key signs for, so it was not signed.',
    );
  });

  it('refuses text that is not a PSBT', () => {
    expect(() => signEscrowPsbt('bm90IGEgcHNidA==', seller, shown())).toThrow(
      'This is not a PSBT this page can read',
    );
  });

  it('refuses a PSBT that pays other than the transfers shown, or leaves another network fee', () => {
    const stranger = p2wpkh(publicKey(privateKey(4)), regtest).address!;
    const cases: [PsbtSummary, string][] = [
      // Shown to the stranger, paid to the buyer (or, as a server would hide it, the other way round).
      [
        shown({
          outputs: [
            { kind: 'payout', to: stranger, amount: '150033000' },
            { kind: 'fee', to: feeAddress, amount: '15000' },
          ],
        }),
        'The PSBT does not pay exactly the transfers shown, so it was not signed.',
      ],
      // One satoshi more to the buyer than shown.
      [
        shown({
          outputs: [
            { kind: 'payout', to: buyerAddress, amount: '150032999' },
            { kind: 'fee', to: feeAddress, amount: '15000' },
          ],
        }),
        'The PSBT does not pay exactly the transfers shown, so it was not signed.',
      ],
      // An output the page does not show.
      [
        shown({ outputs: [{ kind: 'payout', to: buyerAddress, amount: '150033000' }] }),
        'The PSBT does not pay exactly the transfers shown, so it was not signed.',
      ],
      [
        shown({ network_fee: '1000' }),
        'The PSBT leaves another network fee than the one shown, so it was not signed.',
      ],
      // More of the network fee shown out of the refund than the PSBT leaves in all.
      [
        shown({ refund_network_fee: '2001' }),
        'The network fee shown out of the refund does not fit the whole, so it was not signed.',
      ],
    ];
    // bcoin's regtest writes its addresses with `rb`: read as the same scripts.
    const bcoin = { bech32: 'rb', pubKeyHash: 0x3c, scriptHash: 0x26, wif: 0x5a };
    const asBcoin = shown({
      outputs: [
        { kind: 'payout', to: p2wpkh(publicKey(buyer), bcoin).address!, amount: '150033000' },
        { kind: 'fee', to: p2wpkh(publicKey(platform), bcoin).address!, amount: '15000' },
      ],
    });
    expect(() => signEscrowPsbt(payoutPsbt(), seller, asBcoin)).not.toThrow();
    // Part of the network fee shown out of the refund, within the whole: signed.
    expect(() => signEscrowPsbt(payoutPsbt(), seller, shown({ refund_network_fee: '1500' }))).not.toThrow();
    for (const [summary, refusal] of cases) {
      expect(() => signEscrowPsbt(payoutPsbt(), seller, summary)).toThrow(refusal);
    }
    expect(() => signEscrowPsbt(payoutPsbt(), seller, null)).toThrow(
      'This payout comes without the summary of what it pays, so it cannot be checked or signed.',
    );
  });
});
