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
import type { SignedTransaction } from '../escrow-chain-adapter.js';
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
    throw new Error(
      `payout ${payout.payoutRef} is stale: its durable nonce was advanced by another transaction of the leg; build it again and ask for new approvals`,
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
  const payload = solanaSigningPayload(payout);
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

  if (payload.summary.mint === null) {
    const [account] = await readAccounts(context.rpc, [payload.token_account]);
    if (account?.owner === TOKEN_PROGRAM_ADDRESS) {
      const token = getTokenDecoder().decode(account.data);
      const rent = token.isNative.__option === 'Some' ? token.isNative.value : 0n;
      const paid = payload.summary.transfers.reduce((sum, transfer) => sum + BigInt(transfer.amount), 0n);
      if (account.lamports !== rent + paid) {
        throw new Error(
          `payout ${payout.payoutRef} pays ${paid} lamports but the leg's wSOL account holds ${account.lamports - rent} beyond its rent: rebuild it from the leg's deposits`,
        );
      }
    }
  }
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
