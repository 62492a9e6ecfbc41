import { base58, base64, hex } from '@scure/base';
import { getCompiledTransactionMessageDecoder } from '@solana/kit';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { Transfer } from '../settlement-plan.js';

/** What the signer is shown with the message (amounts in base units, as decimal strings). */
export interface SolanaPayoutSummary {
  transfers: { kind: Transfer['kind']; to: string; amount: string }[];
  /** The token's mint; null for SOL (lamports). */
  mint: string | null;
  /** The relayer pays the network fee. */
  network_fee: '0';
}

/**
 * A Solana payout's `signingPayload`: the legacy message (base64) the party and the platform sign,
 * who is to sign it besides the platform (`signer`), the leg's token account it pays from, and
 * the summary.
 */
export interface SolanaSigningPayload {
  format: 'solana_message';
  data: string;
  signer: string;
  token_account: string;
  summary: SolanaPayoutSummary;
}

function isSolanaSigningPayload(value: unknown): value is SolanaSigningPayload {
  if (typeof value !== 'object' || value === null) return false;
  const payload = value as Record<string, unknown>;
  return (
    payload.format === 'solana_message' &&
    typeof payload.data === 'string' &&
    typeof payload.signer === 'string' &&
    typeof payload.token_account === 'string' &&
    typeof payload.summary === 'object'
  );
}

/** The payout's signing payload, refusing one that is not a Solana message. */
export function solanaSigningPayload(payout: UnsignedPayout): SolanaSigningPayload {
  if (payout.chain !== 'SOL' || !isSolanaSigningPayload(payout.signingPayload)) {
    throw new Error(`payout ${payout.payoutRef} is not a Solana message payout`);
  }
  return payout.signingPayload;
}

/** The message as signed: its bytes, the signers it requires (fee payer first) and its nonce value. */
export interface PayoutMessage {
  bytes: Uint8Array;
  signers: string[];
  feePayer: string;
  lifetimeToken: string;
}

/** A legacy message's compiled form (the only version the adapter builds). */
export function decodeLegacyMessage(bytes: Uint8Array) {
  const compiled = getCompiledTransactionMessageDecoder().decode(bytes);
  if (compiled.version !== 'legacy')
    throw new Error(`not a legacy Solana message (version ${compiled.version})`);
  return compiled;
}

export function payoutMessage(payout: UnsignedPayout): PayoutMessage {
  const bytes = base64.decode(solanaSigningPayload(payout).data);
  const compiled = decodeLegacyMessage(bytes);
  const signers = compiled.staticAccounts.slice(0, compiled.header.numSignerAccounts).map(String);
  const feePayer = signers[0];
  if (!feePayer) throw new Error(`payout ${payout.payoutRef}'s message has no fee payer`);
  return { bytes, signers, feePayer, lifetimeToken: compiled.lifetimeToken };
}

const HEX_SIGNATURE = /^(0x)?([0-9a-fA-F]{128})$/;

/** A 64-byte ed25519 signature from base58 or hex (optional 0x), null when it is neither. */
export function decodeSignature(signature: string): Uint8Array | null {
  const trimmed = signature.trim();
  const hexMatch = HEX_SIGNATURE.exec(trimmed);
  if (hexMatch) return hex.decode(hexMatch[2]!.toLowerCase());
  try {
    const bytes = base58.decode(trimmed);
    return bytes.length === 64 ? bytes : null;
  } catch {
    return null;
  }
}
