import type { SolanaLegCustody } from '../api/escrow-leg-signing.js';
import { associatedTokenAddress, isSolanaAddress, nativeMint } from './solana-address.js';

/**
 * Checks a Solana leg's custody against its deposit address, as far as public data allows without
 * reading the chain: the deposit address is the leg's token account; for a token it is the
 * multisig's associated token account for the mint (recomputed here) and Solana Pay sends to the
 * multisig; for SOL it is the wrapped-SOL account itself, where Solana Pay sends. The multisig needs
 * 2 of 3 distinct keys, and the mint is the one the server lists for the symbol (when it lists one).
 */
export function checkSolanaCustody(
  depositAddress: string,
  custody: SolanaLegCustody,
  expectedMint?: string | null,
): { ok: true } | { ok: false; reason: string } {
  const keys = Object.values(custody.public_keys);
  const addresses = [custody.multisig, custody.token_account, custody.nonce_account, custody.mint, ...keys];
  if (!addresses.every(isSolanaAddress))
    return { ok: false, reason: 'The custody names an address that is not a Solana address.' };
  if (custody.threshold !== 2 || new Set(keys).size !== 3) {
    return { ok: false, reason: 'The multisig does not need 2 of 3 distinct keys.' };
  }
  if (custody.token_account !== depositAddress) {
    return { ok: false, reason: 'The deposit address is not the leg’s token account.' };
  }
  if (expectedMint !== undefined && custody.mint !== (expectedMint ?? nativeMint)) {
    return { ok: false, reason: 'The leg’s token is not the one Covenant lists for this symbol.' };
  }
  if (custody.mint === nativeMint) {
    return custody.solana_pay_recipient === depositAddress
      ? { ok: true }
      : { ok: false, reason: 'The payment request does not send to the deposit address.' };
  }
  if (associatedTokenAddress(custody.multisig, custody.mint) !== depositAddress) {
    return { ok: false, reason: 'The deposit address is not the multisig’s token account for this token.' };
  }
  if (custody.solana_pay_recipient !== custody.multisig) {
    return { ok: false, reason: 'The payment request does not send to the multisig.' };
  }
  return { ok: true };
}
