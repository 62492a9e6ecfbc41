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

export type EscrowLegWithSigning = Omit<EscrowStatusLegView, 'signing_payload' | 'signer' | 'custody'> & {
  signing_payload?: LegSigningPayload | null;
  signer?: string | null;
  custody?: LegCustody | null;
};

/**
 * A leg of the status as this page reads it: the domain types `signing_payload` and `custody` as
 * open records (their shape depends on the chain), so only what has the fields read here is kept.
 */
export function legWithSigning(leg: EscrowStatusLegView): EscrowLegWithSigning {
  const payload = leg.signing_payload;
  const custody = leg.custody;
  const keys = custody?.public_keys as Record<string, unknown> | undefined;
  return {
    ...leg,
    signing_payload:
      payload && typeof payload.format === 'string'
        ? {
            format: payload.format,
            data: payload.data,
            summary: (payload.summary as PsbtSummary | null | undefined) ?? null,
          }
        : null,
    custody:
      custody &&
      typeof custody.witness_script === 'string' &&
      keys &&
      typeof keys.buyer === 'string' &&
      typeof keys.seller === 'string' &&
      typeof keys.platform === 'string'
        ? {
            witness_script: custody.witness_script,
            public_keys: { buyer: keys.buyer, seller: keys.seller, platform: keys.platform },
          }
        : null,
  };
}

/** The PSBT (base64) and its summary when a Bitcoin payout of `leg` awaits the caller's signature. */
export function psbtToSign(leg: EscrowLegWithSigning): { psbt: string; summary: PsbtSummary | null } | null {
  const payload = leg.signing_payload;
  if (payload?.format !== 'psbt' || typeof payload.data !== 'string') return null;
  return { psbt: payload.data, summary: payload.summary ?? null };
}
