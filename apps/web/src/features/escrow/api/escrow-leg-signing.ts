import type { EscrowStatusLegView } from '@covenant/domain';

/**
 * The per-leg fields of the escrow status that the Bitcoin and Solana escrows add (issues 12 and
 * 13): what the caller must sign, with which signer, and the leg's custody. The domain types them
 * as open records (their shape depends on the chain), so they are read here only where present
 * and of the expected shape.
 */
export type PsbtTransfer = { kind: 'payout' | 'fee' | 'refund'; to: string; amount: string };

/** What a Bitcoin payout PSBT does, in satoshis as decimal strings, shown before anyone signs. */
export type PsbtSummary = {
  outputs: PsbtTransfer[];
  network_fee: string;
  /**
   * The part of `network_fee` out of the depositor's refund, for the deposit outputs beyond those the
   * payout needed; the rest comes out of the recipient's amount. "0" when the payload has none.
   */
  refund_network_fee: string;
  fee_rate_sat_vb: number | string;
  /** Transfers below the dust limit, folded into the network fee instead of paid. */
  dust_folded: PsbtTransfer[];
};

/**
 * What a Solana payout message does, in base units as decimal strings: each transfer to a wallet
 * address, the token's mint (null for SOL), and the network fee out of the leg (0: Covenant's
 * relayer pays it).
 */
export type SolanaSummary = { transfers: PsbtTransfer[]; mint: string | null; network_fee: string };

export type LegSigningPayload = { format: string; data: unknown; summary?: unknown };

/** A Bitcoin leg's custody: the 2-of-3 witness script and its three public keys. */
export type LegCustody = {
  witness_script: string;
  public_keys: { buyer: string; seller: string; platform: string };
};

/**
 * A Solana leg's custody: the SPL Token multisig (2 of the three keys), the leg's token account
 * (the deposit address) it owns, the durable nonce account of its payout, the mint (the native
 * mint for SOL) and where a Solana Pay request sends (the multisig for a token, the account for SOL).
 */
export type SolanaLegCustody = {
  multisig: string;
  token_account: string;
  nonce_account: string;
  mint: string;
  threshold: number;
  public_keys: { buyer: string; seller: string; platform: string };
  solana_pay_recipient: string;
};

export type EscrowLegWithSigning = Omit<EscrowStatusLegView, 'signing_payload' | 'signer' | 'custody'> & {
  signing_payload?: LegSigningPayload | null;
  signer?: string | null;
  custody?: LegCustody | SolanaLegCustody | null;
};

const strings = (record: Record<string, unknown>, names: readonly string[]) =>
  names.every((name) => typeof record[name] === 'string');

function readCustody(custody: Record<string, unknown> | null): LegCustody | SolanaLegCustody | null {
  const keys = custody?.public_keys as Record<string, unknown> | undefined;
  if (!custody || !keys || typeof keys !== 'object' || !strings(keys, ['buyer', 'seller', 'platform'])) {
    return null;
  }
  const public_keys = {
    buyer: String(keys.buyer),
    seller: String(keys.seller),
    platform: String(keys.platform),
  };
  if (typeof custody.witness_script === 'string')
    return { witness_script: custody.witness_script, public_keys };
  const solana = ['multisig', 'token_account', 'nonce_account', 'mint', 'solana_pay_recipient'] as const;
  if (strings(custody, solana) && typeof custody.threshold === 'number') {
    return {
      multisig: String(custody.multisig),
      token_account: String(custody.token_account),
      nonce_account: String(custody.nonce_account),
      mint: String(custody.mint),
      threshold: custody.threshold,
      public_keys,
      solana_pay_recipient: String(custody.solana_pay_recipient),
    };
  }
  return null;
}

/**
 * A leg of the status as this page reads it: only what has the fields read here is kept.
 */
export function legWithSigning(leg: EscrowStatusLegView): EscrowLegWithSigning {
  const payload = leg.signing_payload;
  return {
    ...leg,
    signing_payload:
      payload && typeof payload.format === 'string'
        ? { format: payload.format, data: payload.data, summary: payload.summary ?? null }
        : null,
    custody: readCustody(leg.custody),
  };
}

export function isBitcoinCustody(custody: EscrowLegWithSigning['custody']): custody is LegCustody {
  return Boolean(custody && 'witness_script' in custody);
}

export function isSolanaCustody(custody: EscrowLegWithSigning['custody']): custody is SolanaLegCustody {
  return Boolean(custody && 'multisig' in custody);
}

/**
 * The PSBT (base64) and its summary when a Bitcoin payout of `leg` awaits the caller's signature. A
 * summary stored before `refund_network_fee` existed has the recipient pay the whole network fee.
 */
export function psbtToSign(leg: EscrowLegWithSigning): { psbt: string; summary: PsbtSummary | null } | null {
  const payload = leg.signing_payload;
  if (payload?.format !== 'psbt' || typeof payload.data !== 'string') return null;
  const summary = payload.summary as Partial<PsbtSummary> | null | undefined;
  return {
    psbt: payload.data,
    summary: summary
      ? ({ ...summary, refund_network_fee: summary.refund_network_fee ?? '0' } as PsbtSummary)
      : null,
  };
}

export function readSolanaSummary(summary: unknown): SolanaSummary | null {
  if (!summary || typeof summary !== 'object') return null;
  const { transfers, mint, network_fee } = summary as Record<string, unknown>;
  const kinds = ['payout', 'fee', 'refund'];
  if (
    !Array.isArray(transfers) ||
    !transfers.every(
      (transfer) =>
        transfer &&
        typeof transfer === 'object' &&
        kinds.includes((transfer as PsbtTransfer).kind) &&
        typeof (transfer as PsbtTransfer).to === 'string' &&
        /^\d+$/.test(String((transfer as PsbtTransfer).amount)),
    ) ||
    !(mint === null || typeof mint === 'string')
  ) {
    return null;
  }
  return {
    transfers: transfers.map(({ kind, to, amount }: PsbtTransfer) => ({ kind, to, amount: String(amount) })),
    mint,
    network_fee: typeof network_fee === 'string' ? network_fee : '0',
  };
}

/**
 * The message (base64) and its summary when a Solana payout of `leg` awaits the caller's signature.
 * The summary may be null when it is missing or unreadable: then nothing can be checked, and the
 * payout is not offered for signing.
 */
export function solanaMessageToSign(
  leg: EscrowLegWithSigning,
): { message: string; summary: SolanaSummary | null } | null {
  const payload = leg.signing_payload;
  if (payload?.format !== 'solana_message' || typeof payload.data !== 'string') return null;
  return { message: payload.data, summary: readSolanaSummary(payload.summary) };
}
