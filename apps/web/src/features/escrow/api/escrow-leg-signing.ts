import type { EscrowStatusLegView } from '@covenant/domain';

/**
 * The per-leg fields of the escrow status that the Bitcoin escrow adds (issue 12): what the caller
 * must sign, with which signer, and the leg's custody. They are being added to the server's
 * `EscrowStatusView` in parallel, so they are optional here and read only where present.
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

export type EscrowLegWithSigning = EscrowStatusLegView & {
  signing_payload?: LegSigningPayload | null;
  signer?: string | null;
  custody?: LegCustody | null;
};

/** The PSBT (base64) and its summary when a Bitcoin payout of `leg` awaits the caller's signature. */
export function psbtToSign(leg: EscrowLegWithSigning): { psbt: string; summary: PsbtSummary | null } | null {
  const payload = leg.signing_payload;
  if (payload?.format !== 'psbt' || typeof payload.data !== 'string') return null;
  return { psbt: payload.data, summary: payload.summary ?? null };
}
