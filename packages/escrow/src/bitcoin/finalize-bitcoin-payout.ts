import { AppError } from '@covenant/domain';
import { hex } from '@scure/base';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { SignedTransaction } from '../escrow-chain-adapter.js';
import { payoutTransaction } from './bitcoin-payout.js';
import { multisigScriptKeys } from './multisig-custody.js';
import { postedTransaction, verifiesInput } from './verify-bitcoin-approval.js';

/**
 * The payout's transaction with two signatures on every input, ready to broadcast. Each approval
 * is a PSBT of the payout's exact transaction; only partial signatures by the custody's keys that
 * verify are taken. Every input's witness is `<empty> <sig> <sig> <witness script>`, signatures in
 * the script's key order (OP_CHECKMULTISIG's rule), which the finalizer writes.
 */
export function finalizeBitcoinPayout(
  payout: UnsignedPayout,
  signatures: readonly { signer: 'buyer' | 'seller' | 'platform'; signature: string }[],
): SignedTransaction {
  const tx = payoutTransaction(payout);
  const approvals = signatures.map(({ signer, signature }) => {
    const posted = postedTransaction(tx, signature);
    if (typeof posted === 'string')
      throw new AppError('INVALID_SIGNATURE', `The ${signer}'s approval is ${posted}`);
    return posted;
  });
  for (let index = 0; index < tx.inputsLength; index++) {
    const input = tx.getInput(index);
    const keys = input.witnessScript ? multisigScriptKeys(input.witnessScript) : null;
    if (!keys) throw new Error(`input ${index} of payout ${payout.payoutRef} is not a 2-of-3 multisig`);
    const found = new Map<string, [Uint8Array, Uint8Array]>();
    for (const posted of approvals) {
      for (const partial of posted.getInput(index).partialSig ?? []) {
        const key = hex.encode(partial[0]);
        if (keys.includes(key) && !found.has(key) && verifiesInput(tx, index, partial))
          found.set(key, partial);
      }
    }
    const chosen = keys.flatMap((key) => {
      const partial = found.get(key);
      return partial ? [partial] : [];
    });
    if (chosen.length < 2) {
      throw new AppError(
        'INVALID_SIGNATURE',
        `Input ${index} has ${chosen.length} valid signature(s) of the 2 its custody needs`,
      );
    }
    tx.updateInput(index, { partialSig: chosen.slice(0, 2) });
  }
  tx.finalize();
  return { rawTransaction: hex.encode(tx.extract()), txRef: tx.id };
}
