import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { SigHash, Transaction } from '@scure/btc-signer';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { ApprovalCheck } from '../escrow-chain-adapter.js';
import { payoutTransaction } from './bitcoin-payout.js';

/** A partial signature: the signer's compressed key and its DER signature with the sighash byte. */
type PartialSignature = [Uint8Array, Uint8Array];

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/** Whether `signature` is `publicKey`'s valid SIGHASH_ALL signature of input `index` of `built` (BIP 143). */
export function verifiesInput(
  built: Transaction,
  index: number,
  [publicKey, signature]: PartialSignature,
): boolean {
  const input = built.getInput(index);
  if (!input.witnessScript || !input.witnessUtxo) return false;
  if (signature.length < 2 || signature[signature.length - 1] !== SigHash.ALL) return false;
  const digest = built.preimageWitnessV0(index, input.witnessScript, SigHash.ALL, input.witnessUtxo.amount);
  try {
    return secp256k1.verify(signature.subarray(0, -1), digest, publicKey, { prehash: false, format: 'der' });
  } catch {
    return false;
  }
}

/** The posted PSBT's transaction, or the reason it is not the payout's. */
export function postedTransaction(built: Transaction, psbtBase64: string): Transaction | string {
  let posted: Transaction;
  try {
    posted = Transaction.fromPSBT(base64.decode(psbtBase64));
  } catch (error) {
    return `not a readable PSBT: ${(error as Error).message}`;
  }
  if (!sameBytes(posted.unsignedTx, built.unsignedTx)) {
    return `the PSBT's transaction ${posted.id} is not the payout's ${built.id}`;
  }
  return posted;
}

/**
 * Checks that `psbtBase64` is the payout's exact transaction and carries, on every input, a valid
 * SIGHASH_ALL signature by `expectedPublicKey`. The approval kept (`signature`) is the payout's own
 * PSBT with that key's partial signatures alone: whatever else the posted PSBT carried is dropped.
 */
export function verifyBitcoinApproval(
  payout: UnsignedPayout,
  psbtBase64: string,
  expectedPublicKey: string,
): ApprovalCheck {
  const built = payoutTransaction(payout);
  const posted = postedTransaction(built, psbtBase64);
  if (typeof posted === 'string') return { valid: false, signer: null, reason: posted };
  const expected = hex.decode(expectedPublicKey);
  const normalized = payoutTransaction(payout);
  for (let index = 0; index < built.inputsLength; index++) {
    const partialSigs = (posted.getInput(index).partialSig ?? []) as PartialSignature[];
    const mine = partialSigs.find(([publicKey]) => sameBytes(publicKey, expected));
    if (!mine) {
      const other = partialSigs[0];
      return {
        valid: false,
        signer: other ? hex.encode(other[0]) : null,
        reason: `input ${index} has no signature by ${expectedPublicKey}`,
      };
    }
    if (!verifiesInput(built, index, mine)) {
      return {
        valid: false,
        signer: expectedPublicKey,
        reason: `input ${index}'s signature by ${expectedPublicKey} does not verify (SIGHASH_ALL)`,
      };
    }
    normalized.updateInput(index, { partialSig: [mine] });
  }
  return { valid: true, signature: base64.encode(normalized.toPSBT(0)) };
}
