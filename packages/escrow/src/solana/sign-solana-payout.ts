import { AppError } from '@covenant/domain';
import { base58 } from '@scure/base';
import {
  type Address,
  getBase64EncodedWireTransaction,
  type SignatureBytes,
  type Transaction,
  type TransactionMessageBytes,
} from '@solana/kit';
import { getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { UnsignedPayout } from '../chain-adapter.js';
import { PayoutExpiredError, type SignedTransaction } from '../escrow-chain-adapter.js';
import { readNonceValue } from './read-solana-leg-custody.js';
import { readAccounts, type SolanaChainContext, stringifyWithBigInts } from './solana-chain-context.js';
import {
  decodeLegacyMessage,
  decodeSignature,
  type PayoutMessage,
  payoutMessage,
  solanaSigningPayload,
} from './solana-payout.js';
import { READ_COMMITMENT } from './solana-rpc.js';
import { signerOf } from './verify-solana-approval.js';

/** The nonce account a payout message advances (its first instruction's first account). */
export function payoutNonceAccount(message: PayoutMessage): string {
  const compiled = decodeLegacyMessage(message.bytes);
  const advance = compiled.instructions[0];
  const nonceAccount = advance?.accountIndices?.[0];
  if (nonceAccount === undefined) throw new Error('the payout message does not start by advancing a nonce');
  return String(compiled.staticAccounts[nonceAccount]);
}

/** Throws the reason a payout whose nonce moved on can never land. */
export async function assertNonceUnused(context: SolanaChainContext, payout: UnsignedPayout): Promise<void> {
  const message = payoutMessage(payout);
  const current = await readNonceValue(context, payoutNonceAccount(message));
  if (current !== message.lifetimeToken) {
    throw new PayoutExpiredError(
      `payout ${payout.payoutRef} is stale: its durable nonce was advanced by another transaction of the leg; build it again and ask for new approvals`,
      'nonce_used',
    );
  }
}

/**
 * The wire transaction carrying out the payout: the approvals (base58 or hex) are matched to the
 * message's multisig signers by verifying them, the relayer signs as fee payer, and the chain
 * simulates it (signatures verified). A SOL leg's wSOL account must hold exactly the rent and the
 * plan, since the relayer receives all of it when the account closes. Throws with the chain's
 * reason and program logs when it would be refused; a used nonce says the payout is stale.
 */
export async function signSolanaPayout(
  context: SolanaChainContext,
  payout: UnsignedPayout,
  signatures: readonly { signer: string; signature: string }[],
): Promise<SignedTransaction> {
  const message = payoutMessage(payout);
  const relayer = await context.platformKey.relayer();
  if (message.feePayer !== relayer.address) {
    throw new Error(`payout ${payout.payoutRef} is paid by ${message.feePayer}, not this platform's relayer`);
  }
  const found = new Map<string, Uint8Array>();
  for (const { signer, signature } of signatures) {
    const bytes = decodeSignature(signature);
    const key = bytes ? signerOf(message, bytes) : null;
    if (!bytes || !key) {
      throw new AppError(
        'INVALID_SIGNATURE',
        `The ${signer}'s signature is not a signature of this payout's message`,
      );
    }
    found.set(key, bytes);
  }
  const missing = message.signers.slice(1).filter((signer) => !found.has(signer));
  if (missing.length > 0) {
    throw new AppError(
      'INVALID_SIGNATURE',
      `The payout has ${found.size} valid signature(s) of the 2 its multisig needs: ${missing.join(' and ')} did not sign`,
    );
  }
  found.set(relayer.address, await relayer.sign(message.bytes));
  const transaction: Transaction = {
    messageBytes: message.bytes as unknown as TransactionMessageBytes,
    signatures: Object.fromEntries(
      message.signers.map((signer) => [signer as Address, found.get(signer) as SignatureBytes]),
    ),
  };
  const txRef = base58.encode(found.get(relayer.address)!);

  await assertLegHoldsThePlan(context, payout);
  const rawTransaction = getBase64EncodedWireTransaction(transaction);
  const { value } = await context.rpc
    .simulateTransaction(rawTransaction, { encoding: 'base64', sigVerify: true, commitment: READ_COMMITMENT })
    .send();
  if (value.err !== null) {
    await assertNonceUnused(context, payout);
    throw new Error(
      `the chain would refuse payout ${payout.payoutRef}: ${stringifyWithBigInts(value.err)}; logs: ${(value.logs ?? []).join(' | ')}`,
    );
  }
  return { rawTransaction, txRef };
}

/**
 * Throws `PayoutExpiredError` when the leg's account no longer holds exactly what the payout pays
 * out (a deposit arrived after it was built): the payout empties and closes the account, so it
 * must be built again from the leg's deposits. A SOL leg's wSOL account holds its rent besides (the
 * relayer receives all of it when the account closes); a token leg's account, the token amount.
 * A travel payout pays part of the leg and leaves the account open: it needs at least its amount.
 */
async function assertLegHoldsThePlan(context: SolanaChainContext, payout: UnsignedPayout): Promise<void> {
  const payload = solanaSigningPayload(payout);
  const [account] = await readAccounts(context.rpc, [payload.token_account]);
  if (account?.owner !== TOKEN_PROGRAM_ADDRESS) return;
  const token = getTokenDecoder().decode(account.data);
  const paid = payload.summary.transfers.reduce((sum, transfer) => sum + BigInt(transfer.amount), 0n);
  const held =
    payload.summary.mint === null
      ? account.lamports - (token.isNative.__option === 'Some' ? token.isNative.value : 0n)
      : token.amount;
  const partial = payload.summary.transfers.every((transfer) => transfer.kind === 'travel');
  if (partial ? held < paid : held !== paid) {
    throw new PayoutExpiredError(
      `payout ${payout.payoutRef} pays ${paid} but the leg's account holds ${held}: build it again from the leg's deposits`,
      'balance_changed',
    );
  }
}
