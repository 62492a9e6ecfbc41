import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { OutScript, SigHash, Transaction } from '@scure/btc-signer';

/**
 * Signs a Bitcoin escrow payout (the `psbt` signing payload of a leg) with the user's escrow key:
 * every input, SIGHASH_ALL, and answers the PSBT with the partial signatures added, in base64, for
 * `POST /escrow/release`. Only an escrow spend is signed: each input must carry its witness UTXO
 * and witness script, and the script must be a multisig naming the user's key (@scure/btc-signer
 * itself refuses a witness script whose hash is not the one the UTXO pays to). Anything else (another wallet's coins, a different sighash) is refused unsigned.
 */
export function signEscrowPsbt(psbtBase64: string, privateKey: Uint8Array): string {
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  let transaction: Transaction;
  try {
    transaction = Transaction.fromPSBT(base64.decode(psbtBase64));
  } catch {
    throw new Error('This is not a PSBT this page can read, so it was not signed.');
  }
  if (transaction.inputsLength === 0) throw new Error('This PSBT spends nothing, so it was not signed.');
  for (let index = 0; index < transaction.inputsLength; index++) {
    checkEscrowInput(transaction, index, hex.encode(publicKey));
  }
  for (let index = 0; index < transaction.inputsLength; index++) {
    transaction.signIdx(privateKey, index, [SigHash.ALL]);
  }
  return base64.encode(transaction.toPSBT());
}

function checkEscrowInput(transaction: Transaction, index: number, publicKey: string): void {
  const input = transaction.getInput(index);
  const { witnessUtxo, witnessScript } = input;
  if (!witnessUtxo || !witnessScript) {
    throw new Error(`Input ${index} carries no witness UTXO or witness script, so it was not signed.`);
  }
  if (input.sighashType !== undefined && input.sighashType !== SigHash.ALL) {
    throw new Error(`Input ${index} asks for a signature other than SIGHASH_ALL, so it was not signed.`);
  }
  const script = OutScript.decode(witnessScript);
  if (script.type !== 'ms' || !script.pubkeys.some((key) => hex.encode(key) === publicKey)) {
    throw new Error(`Input ${index} is not an escrow your key signs for, so it was not signed.`);
  }
}
