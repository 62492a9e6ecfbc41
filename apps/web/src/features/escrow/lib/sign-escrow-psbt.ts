import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { Address, OutScript, SigHash, Transaction } from '@scure/btc-signer';
import type { PsbtSummary } from '../api/escrow-leg-signing.js';

// The networks a payout address may be written for: its prefix or version byte tells which.
const networks = [
  { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
  { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  // bcoin's regtest (the local node).
  { bech32: 'rb', pubKeyHash: 0x3c, scriptHash: 0x26, wif: 0x5a },
];

/** The output script an address pays to; null when it is no Bitcoin address. */
function scriptOf(address: string): string | null {
  for (const network of networks) {
    try {
      return hex.encode(OutScript.encode(Address(network).decode(address)));
    } catch {
      // Another network's address, or none.
    }
  }
  return null;
}

/**
 * Checks that the PSBT pays exactly what the page shows (the summary's outputs, to the same
 * addresses, in the same amounts, and nothing else) and leaves exactly the shown network fee, of
 * which the part shown out of the refund is no more than the whole: the page shows the summary, so
 * a PSBT that differs from it is never signed.
 */
function checkOutputs(transaction: Transaction, summary: PsbtSummary): void {
  const shown = summary.outputs.map((output) => {
    const script = scriptOf(output.to);
    if (script === null)
      throw new Error(`The address ${output.to} shown is not one this page can read, so it was not signed.`);
    return `${script}:${BigInt(output.amount)}`;
  });
  const paid: string[] = [];
  let out = 0n;
  for (let index = 0; index < transaction.outputsLength; index++) {
    const output = transaction.getOutput(index);
    if (!output.script || output.amount === undefined)
      throw new Error(`Output ${index} cannot be read, so it was not signed.`);
    paid.push(`${hex.encode(output.script)}:${output.amount}`);
    out += output.amount;
  }
  if (shown.length !== paid.length || [...shown].sort().join() !== [...paid].sort().join()) {
    throw new Error('The PSBT does not pay exactly the transfers shown, so it was not signed.');
  }
  let spent = 0n;
  for (let index = 0; index < transaction.inputsLength; index++) {
    spent += transaction.getInput(index).witnessUtxo?.amount ?? 0n;
  }
  const networkFee = BigInt(summary.network_fee);
  if (spent - out !== networkFee) {
    throw new Error('The PSBT leaves another network fee than the one shown, so it was not signed.');
  }
  const refundShare = BigInt(summary.refund_network_fee);
  if (refundShare < 0n || refundShare > networkFee) {
    throw new Error('The network fee shown out of the refund does not fit the whole, so it was not signed.');
  }
}

/**
 * Signs a Bitcoin escrow payout (the `psbt` signing payload of a leg) with the user's escrow key:
 * every input, SIGHASH_ALL, and answers the PSBT with the partial signatures added, in base64, for
 * `POST /escrow/release`. Only an escrow spend is signed: each input must carry its witness UTXO
 * and witness script, and the script must be a multisig naming the user's key (@scure/btc-signer
 * itself refuses a witness script whose hash is not the one the UTXO pays to), and only one that pays
 * exactly the transfers and network fee the page shows (`summary`). Anything else (another wallet's
 * coins, a different sighash, an output the page does not show) is refused unsigned.
 */
export function signEscrowPsbt(
  psbtBase64: string,
  privateKey: Uint8Array,
  summary: PsbtSummary | null,
): string {
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
  if (!summary) {
    throw new Error(
      'This payout comes without the summary of what it pays, so it cannot be checked or signed.',
    );
  }
  checkOutputs(transaction, summary);
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
