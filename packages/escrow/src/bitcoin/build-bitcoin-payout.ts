import { AppError } from '@covenant/domain';
import { base64 } from '@scure/base';
import { DEFAULT_SEQUENCE, Transaction } from '@scure/btc-signer';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { DepositOutput } from '../escrow-chain-adapter.js';
import type { SettlementPlan, Transfer } from '../settlement-plan.js';
import type { EscrowLeg } from '../types.js';
import { estimateVsize, multisigInputWitnessWeight } from './bitcoin-fee-rules.js';
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
 * no payout. Any other output below the dust limit is left out and its amount goes to the miner
 * too. Inputs and outputs add up to the plan exactly: nothing is left for change.
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
  const folded = outputs.filter((output) => output !== payer && output.amount < dustLimit(output.script));
  const kept = outputs.filter((output) => !folded.includes(output));
  const witnessWeight = multisigInputWitnessWeight(custody.witnessScript.length);
  const vsize = estimateVsize(
    deposits.map(() => witnessWeight),
    kept.map((output) => output.script),
  );
  const minerFee = vsize * feeRate;
  const payerAmount = payer.amount - minerFee;
  if (payerAmount < dustLimit(payer.script)) {
    throw new AppError(
      'INSUFFICIENT_BALANCE',
      `The ${payer.kind} of ${payer.amount} sats cannot pay a network fee of ${minerFee} sats and stay above the dust limit`,
    );
  }
  const foldedTotal = folded.reduce((sum, output) => sum + output.amount, 0n);

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
    amount: output === payer ? payerAmount : output.amount,
    script: output.script,
  }));
  for (const output of paid) tx.addOutput({ script: output.script, amount: output.amount });

  const summary: BitcoinPayoutSummary = {
    outputs: paid.map(({ kind, to, amount }) => ({ kind, to, amount: amount.toString() })),
    network_fee: (minerFee + foldedTotal).toString(),
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
