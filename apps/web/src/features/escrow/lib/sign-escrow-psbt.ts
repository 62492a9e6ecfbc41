import { estimateVsize, multisigInputWitnessWeight, platformFee } from '@covenant/domain';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { Address, OutScript, SigHash, Transaction } from '@scure/btc-signer';
import type { LegCustody, PsbtSummary, PsbtTransfer } from '../api/escrow-leg-signing.js';
import type { AgreedLegTerms } from './agreed-leg-terms.js';
import { checkBitcoinCustody } from './check-bitcoin-custody.js';

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

const notSigned = 'so it was not signed.';

/** What a Bitcoin payout is checked against besides its summary: the leg, the deal the user agreed to and the chain. */
export interface BitcoinPayoutExpectation {
  depositAddress: string;
  /** The leg's custody (witness script and keys) as the escrow lists it. */
  custody: LegCustody | null;
  /** The BTC `fee_address` of `GET /chains`; undefined while the list loads. */
  feeAddress: string | undefined;
  terms: AgreedLegTerms;
  /**
   * What the receiver may get before the platform fee and its network fee (`agreedGrossToReceiver`):
   * the deal's amount on a release, the mediator's share on a split, 0n on a refund; null when the
   * page cannot tell (a split without a decision it knows of), so nothing may go to the receiver.
   */
  gross: bigint | null;
}

/**
 * The highest fee rate any Covenant server builds a payout at, in sat/vB: the network fee is the
 * estimated vsize × a rate clamped to BTC_FEE_RATE_MAX_SAT_VB, which the server's configuration
 * refuses above 10 000 (apps/server/src/config.ts; packages/escrow/src/bitcoin/bitcoin-fee-rules.ts).
 */
const maxFeeRateSatVb = 10_000n;

/** The largest dust threshold of a standard output (P2PKH, 546 sats at Core's 3 sat/vB dust relay fee). */
const maxDustLimit = 546n;

/** The transaction's virtual size by the formula the server sets the network fee with, signatures at their largest. */
function estimatedVsize(transaction: Transaction): bigint {
  const witnessWeights: bigint[] = [];
  for (let index = 0; index < transaction.inputsLength; index++) {
    witnessWeights.push(multisigInputWitnessWeight(transaction.getInput(index).witnessScript?.length ?? 0));
  }
  const outputScripts: Uint8Array[] = [];
  for (let index = 0; index < transaction.outputsLength; index++) {
    outputScripts.push(transaction.getOutput(index).script ?? new Uint8Array());
  }
  return estimateVsize(witnessWeights, outputScripts);
}

/**
 * Checks the payout against the leg and the deal, not only its own summary: the custody recomputes
 * the deposit address (`checkBitcoinCustody`) and every input spends exactly this leg's witness
 * script (not another 2-of-3 naming the key); each output and each output folded as dust goes where
 * its kind must (the payout to the receiver's agreed payout address, the fee to the fee address
 * `GET /chains` lists, a refund to the depositor's agreed refund address); the fee is exactly
 * `floor(gross / 10 000)`, as the server's plan makes it, and the payout `gross − fee` less at most
 * the network fee (which the server takes out of it); and the network fee stays within what the
 * server's rules allow (below).
 */
function checkAgainstDeal(
  transaction: Transaction,
  summary: PsbtSummary,
  expected: BitcoinPayoutExpectation,
): void {
  const { custody, terms, feeAddress } = expected;
  if (!custody) throw new Error('This leg comes without its custody, so its payout was not signed.');
  const custodyCheck = checkBitcoinCustody(expected.depositAddress, custody);
  if (!custodyCheck.ok)
    throw new Error(`${custodyCheck.reason.replace(/\.$/, '')}, so the payout was not signed.`);
  const witnessScript = custody.witness_script.toLowerCase();
  for (let index = 0; index < transaction.inputsLength; index++) {
    const script = transaction.getInput(index).witnessScript;
    if (!script || hex.encode(script) !== witnessScript) {
      throw new Error(`Input ${index} spends from another escrow than this leg’s, ${notSigned}`);
    }
  }
  if (!feeAddress)
    throw new Error(`This page does not know Covenant’s Bitcoin fee address yet, ${notSigned}`);
  const destinations: Record<PsbtTransfer['kind'], string | null> = {
    payout: scriptOf(terms.receiverPayoutAddress),
    fee: scriptOf(feeAddress),
    refund: scriptOf(terms.depositorRefundAddress),
  };
  const named = {
    payout: 'the receiver’s payout address',
    fee: 'Covenant’s fee address',
    refund: 'the depositor’s refund address',
  };
  for (const output of [...summary.outputs, ...summary.dust_folded]) {
    const destination = destinations[output.kind];
    if (destination === null || scriptOf(output.to) !== destination) {
      throw new Error(
        `An output marked ${output.kind} pays an address other than ${named[output.kind]}, ${notSigned}`,
      );
    }
  }

  const gross = expected.gross ?? 0n;
  const fee = platformFee(gross);
  const amountOf = (outputs: readonly PsbtTransfer[], kind: PsbtTransfer['kind']) =>
    outputs.filter((output) => output.kind === kind).map((output) => BigInt(output.amount));
  const payouts = amountOf(summary.outputs, 'payout');
  const fees = [...amountOf(summary.outputs, 'fee'), ...amountOf(summary.dust_folded, 'fee')];
  const networkFee = BigInt(summary.network_fee);
  const [payout = 0n] = payouts;
  if (expected.gross === null && (payouts.length > 0 || fees.length > 0)) {
    throw new Error(
      `The payout pays the receiver, but this page knows of no decision that gives it anything, ${notSigned}`,
    );
  }
  if (
    payouts.length > 1 ||
    fees.length > 1 ||
    (fees[0] ?? 0n) !== fee ||
    payout > gross - fee ||
    gross - fee - payout > networkFee ||
    (gross > 0n && payouts.length === 0)
  ) {
    throw new Error(
      `The payout does not pay the receiver the deal’s amount less the 0.01% fee, ${notSigned}`,
    );
  }
  // The server's network fee is vsize × rate (rate at most 10 000 sat/vB), plus what it folds: the
  // fee when below dust, and a refund its share of the fee would leave below dust (so at most the
  // dust limit plus vsize × rate). It never exceeds this bound; a payout past it gives the miners
  // money the deal does not, and is refused. A fraction of the leg cannot serve as the bound: at
  // the configured ceiling a small leg's fee is legitimately most of it.
  const rateText = String(summary.fee_rate_sat_vb);
  const rate = /^\d+$/.test(rateText) ? BigInt(rateText) : 0n;
  const vsizeFee = estimatedVsize(transaction) * rate;
  const folded = summary.dust_folded.map((output) => BigInt(output.amount));
  const foldedRefunds = amountOf(summary.dust_folded, 'refund');
  if (
    rate < 1n ||
    rate > maxFeeRateSatVb ||
    foldedRefunds.some((amount) => amount >= maxDustLimit + vsizeFee) ||
    networkFee > vsizeFee + folded.reduce((sum, amount) => sum + amount, 0n)
  ) {
    throw new Error(`The network fee is more than Covenant’s fee rules allow, ${notSigned}`);
  }
}

/**
 * Signs a Bitcoin escrow payout (the `psbt` signing payload of a leg) with the user's escrow key:
 * every input, SIGHASH_ALL, and answers the PSBT with the partial signatures added, in base64, for
 * `POST /escrow/release`. Only an escrow spend is signed: each input must carry its witness UTXO
 * and witness script, and the script must be a multisig naming the user's key (@scure/btc-signer
 * itself refuses a witness script whose hash is not the one the UTXO pays to), and only one that pays
 * exactly the transfers and network fee the page shows (`summary`), themselves checked against the
 * leg and the deal (`expected`, see `checkAgainstDeal`). Anything else (another wallet's coins,
 * another escrow's, a different sighash, an output the page does not show or the deal does not
 * make) is refused unsigned.
 */
export function signEscrowPsbt(
  psbtBase64: string,
  privateKey: Uint8Array,
  summary: PsbtSummary | null,
  expected: BitcoinPayoutExpectation,
): string {
  const publicKey = secp256k1.getPublicKey(privateKey, true);
  const transaction = checkedPayout(psbtBase64, summary, expected, hex.encode(publicKey));
  for (let index = 0; index < transaction.inputsLength; index++) {
    transaction.signIdx(privateKey, index, [SigHash.ALL]);
  }
  return base64.encode(transaction.toPSBT());
}

/**
 * Every check {@link signEscrowPsbt} makes before it signs, but the key's: so a payout that does
 * not check out is refused before the escrow password is asked for.
 */
export function checkBitcoinPayout(
  psbtBase64: string,
  summary: PsbtSummary | null,
  expected: BitcoinPayoutExpectation,
): void {
  checkedPayout(psbtBase64, summary, expected, null);
}

function checkedPayout(
  psbtBase64: string,
  summary: PsbtSummary | null,
  expected: BitcoinPayoutExpectation,
  publicKey: string | null,
): Transaction {
  let transaction: Transaction;
  try {
    transaction = Transaction.fromPSBT(base64.decode(psbtBase64));
  } catch {
    throw new Error('This is not a PSBT this page can read, so it was not signed.');
  }
  if (transaction.inputsLength === 0) throw new Error('This PSBT spends nothing, so it was not signed.');
  for (let index = 0; index < transaction.inputsLength; index++) {
    checkEscrowInput(transaction, index, publicKey);
  }
  if (!summary) {
    throw new Error(
      'This payout comes without the summary of what it pays, so it cannot be checked or signed.',
    );
  }
  checkOutputs(transaction, summary);
  checkAgainstDeal(transaction, summary, expected);
  return transaction;
}

function checkEscrowInput(transaction: Transaction, index: number, publicKey: string | null): void {
  const input = transaction.getInput(index);
  const { witnessUtxo, witnessScript } = input;
  if (!witnessUtxo || !witnessScript) {
    throw new Error(`Input ${index} carries no witness UTXO or witness script, so it was not signed.`);
  }
  if (input.sighashType !== undefined && input.sighashType !== SigHash.ALL) {
    throw new Error(`Input ${index} asks for a signature other than SIGHASH_ALL, so it was not signed.`);
  }
  const script = OutScript.decode(witnessScript);
  if (
    script.type !== 'ms' ||
    (publicKey !== null && !script.pubkeys.some((key) => hex.encode(key) === publicKey))
  ) {
    throw new Error(`Input ${index} is not an escrow your key signs for, so it was not signed.`);
  }
}
