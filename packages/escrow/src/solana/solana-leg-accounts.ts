import { address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { LegTerms } from '../chain-adapter.js';
import type { SolanaKeySigner, SolanaPlatformKey } from './platform-solana-key.js';

/** The wrapped-SOL mint: a SOL leg's token account is one of it. */
export const SOLANA_NATIVE_MINT = 'So11111111111111111111111111111111111111112';

/** The accounts of a leg, all derived from the platform's seed and the leg: no network needed. */
export interface SolanaLegAccounts {
  multisig: SolanaKeySigner;
  /** The deposit address: the multisig's ATA of the mint (token legs) or the wSOL account (SOL legs). */
  tokenAccount: string;
  /** The wSOL account's key on SOL legs (it signs its creation); null for an ATA. */
  tokenAccountKey: SolanaKeySigner | null;
  nonce: SolanaKeySigner;
  mint: string;
}

/** The associated token account of `owner` for `mint` (SPL Token program). */
export async function associatedTokenAccount(owner: string, mint: string): Promise<string> {
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    mint: address(mint),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  return ata;
}

/**
 * The nonce account of the leg whose deposit address is `depositAddress`. Its key is labelled with
 * the deposit address rather than the deal, so that a payout can be built from the leg as the
 * engine stores it (which has no deal id).
 */
export function legNonceAccount(platformKey: SolanaPlatformKey, depositAddress: string) {
  return platformKey.legAccount(`${depositAddress}/nonce`);
}

/**
 * The leg's multisig (label `${dealId}/${leg}/multisig`), its token account (the multisig's ATA of
 * the mint, or for SOL a wSOL account keyed `${dealId}/${leg}/wsol-account`) and its nonce account.
 */
export async function solanaLegAccounts(
  platformKey: SolanaPlatformKey,
  terms: Pick<LegTerms, 'dealId' | 'leg' | 'tokenAddress'>,
): Promise<SolanaLegAccounts> {
  const label = (role: string) => `${terms.dealId}/${terms.leg}/${role}`;
  const multisig = await platformKey.legAccount(label('multisig'));
  const mint = terms.tokenAddress ?? SOLANA_NATIVE_MINT;
  const tokenAccountKey = terms.tokenAddress ? null : await platformKey.legAccount(label('wsol-account'));
  const tokenAccount = tokenAccountKey?.address ?? (await associatedTokenAccount(multisig.address, mint));
  return {
    multisig,
    tokenAccount,
    tokenAccountKey,
    nonce: await legNonceAccount(platformKey, tokenAccount),
    mint,
  };
}
