import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { p2ms, p2wpkh, p2wsh, SigHash, Transaction } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
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

describe('signEscrowPsbt', () => {
  it("adds the seller's SIGHASH_ALL signature to every input, one that verifies over the input's BIP-143 digest", () => {
    const signed = Transaction.fromPSBT(base64.decode(signEscrowPsbt(payoutPsbt(), seller)));
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
    expect(() => signEscrowPsbt(payoutPsbt({ witnessScript: false }), seller)).toThrow(
      'Input 0 carries no witness UTXO or witness script, so it was not signed.',
    );
  });

  it('refuses a PSBT whose witness script does not name the key', () => {
    const stranger = privateKey(4);
    expect(() => signEscrowPsbt(payoutPsbt(), stranger)).toThrow(
      'Input 0 is not an escrow your key signs for, so it was not signed.',
    );
  });

  it('refuses text that is not a PSBT', () => {
    expect(() => signEscrowPsbt('bm90IGEgcHNidA==', seller)).toThrow('This is not a PSBT this page can read');
  });
});
