import type { EscrowStatusLegView } from '@covenant/domain';

/**
 * The per-leg fields of the escrow status that carry the Bitcoin escrow: what the caller must sign,
 * with which signer, and the leg's custody. The API types `signing_payload` and `custody` loosely
 * (their shape is the chain's); these are the shapes the Bitcoin adapter writes.
 */
export type PsbtTransfer = { kind: 'payout' | 'fee' | 'refund'; to: string; amount: string };

/** What a Bitcoin payout PSBT does, in satoshis as decimal strings, shown before anyone signs. */
export type PsbtSummary = {
  outputs: PsbtTransfer[];
  network_fee: string;
  fee_rate_sat_vb: number | string;
  /** Transfers below the dust limit, folded into the network fee instead of paid. */
  dust_folded: PsbtTransfer[];
};

export type LegSigningPayload = { format: string; data: unknown; summary?: PsbtSummary | null };

export type LegCustody = {
  witness_script: string;
  public_keys: { buyer: string; seller: string; platform: string };
};

export type EscrowLegWithSigning = Omit<EscrowStatusLegView, 'signing_payload' | 'custody'> & {
  signing_payload: LegSigningPayload | null;
  custody: LegCustody | null;
};

/** A leg of the status read with its chain-specific fields in the shapes above. */
export function legWithSigning(leg: EscrowStatusLegView): EscrowLegWithSigning {
  return leg as EscrowLegWithSigning;
}

/** The PSBT (base64) and its summary when a Bitcoin payout of `leg` awaits the caller's signature. */
export function psbtToSign(leg: EscrowLegWithSigning): { psbt: string; summary: PsbtSummary | null } | null {
  const payload = leg.signing_payload;
  if (payload?.format !== 'psbt' || typeof payload.data !== 'string') return null;
  return { psbt: payload.data, summary: payload.summary ?? null };
}
