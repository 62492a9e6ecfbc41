import { base64 } from '@scure/base';
import { Transaction } from '@scure/btc-signer';
import type { UnsignedPayout } from '../chain-adapter.js';

export type BitcoinOutputKind = 'payout' | 'fee' | 'refund';

/** What the signer is shown with the PSBT (amounts in satoshis, as decimal strings). */
export interface BitcoinPayoutSummary {
  outputs: { kind: BitcoinOutputKind; to: string; amount: string }[];
  /** Inputs − outputs: what the miner gets, outputs below the dust limit folded in. */
  network_fee: string;
  /**
   * The part of `network_fee` out of the depositor's refund beside a payout, for the deposit outputs
   * beyond those the payout and fee need: its share of the fee, or its whole amount when that share
   * left it below the dust limit (then also in `dust_folded`). "0" when the recipient pays it all;
   * payloads stored before it was added lack it, which means the same.
   */
  refund_network_fee: string;
  fee_rate_sat_vb: string;
  dust_folded: { kind: BitcoinOutputKind; to: string; amount: string }[];
}

/** A Bitcoin payout's `signingPayload`: the unsigned PSBT (base64, version 0) and its summary. */
export interface BitcoinSigningPayload {
  format: 'psbt';
  data: string;
  summary: BitcoinPayoutSummary;
}

function isBitcoinSigningPayload(value: unknown): value is BitcoinSigningPayload {
  if (typeof value !== 'object' || value === null) return false;
  const payload = value as Record<string, unknown>;
  return payload.format === 'psbt' && typeof payload.data === 'string' && typeof payload.summary === 'object';
}

/** The payout's signing payload, refusing one that is not a Bitcoin PSBT. */
export function bitcoinSigningPayload(payout: UnsignedPayout): BitcoinSigningPayload {
  if (payout.chain !== 'BTC' || !isBitcoinSigningPayload(payout.signingPayload)) {
    throw new Error(`payout ${payout.payoutRef} is not a Bitcoin PSBT payout`);
  }
  return payout.signingPayload;
}

/** The payout's unsigned transaction, as built, checked against its reference (the txid). */
export function payoutTransaction(payout: UnsignedPayout): Transaction {
  const tx = Transaction.fromPSBT(base64.decode(bitcoinSigningPayload(payout).data));
  if (tx.id !== payout.payoutRef) {
    throw new Error(`payout ${payout.payoutRef}'s PSBT is for another transaction (${tx.id})`);
  }
  return tx;
}
