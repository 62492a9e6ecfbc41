import { AppError, estimateVsize, multisigInputWitnessWeight } from '@covenant/domain';
import { base64 } from '@scure/base';
import { DEFAULT_SEQUENCE, Transaction } from '@scure/btc-signer';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { DepositOutput } from '../escrow-chain-adapter.js';
import { largestFirst } from '../payout-inputs.js';
import type { SettlementPlan, Transfer } from '../settlement-plan.js';
import type { EscrowLeg } from '../types.js';
import type { BitcoinAddressFormat } from './bitcoin-network.js';
import type { BitcoinOutputKind, BitcoinPayoutSummary, BitcoinSigningPayload } from './bitcoin-payout.js';
import type { MultisigCustody } from './multisig-custody.js';
import { addressOutputScript } from './parse-raw-bitcoin.js';

const OUTPUT_ORDER: Record<BitcoinOutputKind, number> = { payout: 0, fee: 1, refund: 2 };

export interface BitcoinPayoutInput {
  leg: Pick<EscrowLeg, 'escrowId' | 'leg'>;
  plan: SettlementPlan;
  deposits: readonly DepositOutput[];
  custody: MultisigCustody;
  /** sat/vB. */
  feeRate: bigint;
  dustLimit: (outputScript: Uint8Array) => bigint;
  addressFormat: BitcoinAddressFormat;
}

/**
 * The PSBT carrying out `plan`: version 2, locktime 0, one input per deposit output sorted by
 * txid then vout (sequence final, witness_utxo and witness_script on each), one output per
 * transfer in the order payout, fee, refund. The network fee (estimated vsize × rate, signatures
 * at their largest) comes out of the recipient's output: the payout, or the refund when there is
 * no payout. When a payout has a refund to the depositor beside it, the inputs beyond those the
 * payout and fee need (the largest deposits, as few as hold them) are the depositor's doing, and
 * the refund pays for them: it gives up fee(all inputs) − fee(needed inputs), the payout
 * fee(needed inputs), both with the same outputs. A refund that its share would leave below the
 * dust limit is folded into the fee whole, and the payout then pays, without the refund output,
 * max(fee(needed inputs), fee(all inputs) − refund): never less than its own inputs cost, never
 * more than the whole fee it paid before. Any other output below the dust limit is left out and its
 * amount goes to the miner too. Inputs and outputs add up to the plan exactly: nothing is left for
 * change.
 */
export function buildBitcoinPayout(input: BitcoinPayoutInput): UnsignedPayout {
  const { plan, deposits, custody, feeRate, dustLimit, addressFormat } = input;
  // Travel for a meeting is paid out of an Ethereum stable leg only; a Bitcoin payout spends everything.
  const transfers = plan.transfers.filter(
    (transfer): transfer is Transfer & { kind: BitcoinOutputKind } => transfer.kind !== 'travel',
  );
  if (plan.outcome === 'travel' || transfers.length !== plan.transfers.length) {
    throw new AppError('VALIDATION_FAILED', 'A Bitcoin leg has no travel payout');
  }
  if (deposits.length === 0) {
    throw new AppError(
      'INSUFFICIENT_BALANCE',
      'A Bitcoin payout needs at least one confirmed deposit to spend',
    );
  }
  const received = deposits.reduce((sum, deposit) => sum + deposit.amount, 0n);
  const planned = transfers.reduce((sum, transfer) => sum + transfer.amount, 0n);
  if (received !== planned) {
    throw new Error(`the plan pays out ${planned} sats but the deposits hold ${received}`);
  }
  const outputs = [...transfers]
    .sort((a, b) => OUTPUT_ORDER[a.kind] - OUTPUT_ORDER[b.kind])
    .map((transfer) => {
      const script = addressOutputScript(transfer.to, addressFormat);
      if (!script) {
        throw new AppError(
          'VALIDATION_FAILED',
          `The ${transfer.kind} address ${transfer.to} is not a valid Bitcoin address`,
        );
      }
      return { ...transfer, script };
    });
  const payer =
    outputs.find((output) => output.kind === 'payout') ?? outputs.find((output) => output.kind === 'refund');
  if (!payer)
    throw new Error('a Bitcoin payout needs a payout or a refund output to pay the network fee from');
  const refund = payer.kind === 'payout' ? outputs.find((output) => output.kind === 'refund') : undefined;
  const needed = refund ? inputsHolding(deposits, planned - refund.amount) : deposits;
  const witnessWeight = multisigInputWitnessWeight(custody.witnessScript.length);
  const networkFee = (spent: readonly DepositOutput[], paid: readonly { script: Uint8Array }[]) =>
    estimateVsize(
      spent.map(() => witnessWeight),
      paid.map((output) => output.script),
    ) * feeRate;
  let kept = outputs.filter(
    (output) => output === payer || output === refund || output.amount >= dustLimit(output.script),
  );
  let payerFee = networkFee(needed, kept);
  let refundFee = networkFee(deposits, kept) - payerFee;
  if (refund && refund.amount - refundFee < dustLimit(refund.script)) {
    kept = kept.filter((output) => output !== refund);
    const own = networkFee(needed, kept);
    const whole = networkFee(deposits, kept);
    payerFee = own > whole - refund.amount ? own : whole - refund.amount;
    // Its whole amount goes to the miner; it paid for inputs of its own only when there were any.
    refundFee = own < whole ? refund.amount : 0n;
  }
  const folded = outputs.filter((output) => !kept.includes(output));
  const payerAmount = payer.amount - payerFee;
  if (payerAmount < dustLimit(payer.script)) {
    throw new AppError(
      'INSUFFICIENT_BALANCE',
      `The ${payer.kind} of ${payer.amount} sats cannot pay a network fee of ${payerFee} sats and stay above the dust limit`,
    );
  }

  const tx = new Transaction({ version: 2, lockTime: 0 });
  const sortedDeposits = [...deposits].sort((a, b) =>
    a.txRef === b.txRef ? a.position - b.position : a.txRef < b.txRef ? -1 : 1,
  );
  for (const deposit of sortedDeposits) {
    tx.addInput({
      txid: deposit.txRef,
      index: deposit.position,
      sequence: DEFAULT_SEQUENCE,
      witnessUtxo: { script: custody.outputScript, amount: deposit.amount },
      witnessScript: custody.witnessScript,
    });
  }
  const paid = kept.map((output) => ({
    kind: output.kind,
    to: output.to,
    amount: output === payer ? payerAmount : output === refund ? output.amount - refundFee : output.amount,
    script: output.script,
  }));
  for (const output of paid) tx.addOutput({ script: output.script, amount: output.amount });

  const summary: BitcoinPayoutSummary = {
    outputs: paid.map(({ kind, to, amount }) => ({ kind, to, amount: amount.toString() })),
    network_fee: (received - paid.reduce((sum, output) => sum + output.amount, 0n)).toString(),
    refund_network_fee: refundFee.toString(),
    fee_rate_sat_vb: feeRate.toString(),
    dust_folded: folded.map(({ kind, to, amount }) => ({ kind, to, amount: amount.toString() })),
  };
  const signingPayload: BitcoinSigningPayload = {
    format: 'psbt',
    data: base64.encode(tx.toPSBT(0)),
    summary,
  };
  return { chain: 'BTC', escrowId: input.leg.escrowId, leg: input.leg.leg, payoutRef: tx.id, signingPayload };
}

/** The deposit outputs, largest first (as `choosePayoutInputs` takes them), as few as hold `amount`. */
function inputsHolding(deposits: readonly DepositOutput[], amount: bigint): readonly DepositOutput[] {
  const chosen: DepositOutput[] = [];
  let held = 0n;
  for (const deposit of [...deposits].sort(largestFirst)) {
    if (held >= amount) break;
    chosen.push(deposit);
    held += deposit.amount;
  }
  return chosen;
}
