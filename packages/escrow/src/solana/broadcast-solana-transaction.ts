import { type Base64EncodedWireTransaction, signature } from '@solana/kit';
import type { SignedTransaction } from '../escrow-chain-adapter.js';
import type { SolanaChainContext } from './solana-chain-context.js';
import { describeRpcError } from './solana-rpc.js';

/**
 * Sends a signed transaction without preflight (signPayoutTransaction simulated it). A transaction
 * the node has already processed is not an error: the send may answer so, or the status tells.
 */
export async function broadcastSolanaTransaction(
  context: SolanaChainContext,
  transaction: SignedTransaction,
): Promise<void> {
  try {
    await context.rpc
      .sendTransaction(transaction.rawTransaction as Base64EncodedWireTransaction, {
        encoding: 'base64',
        skipPreflight: true,
      })
      .send();
  } catch (error) {
    const reason = describeRpcError(error);
    if (/already (been )?processed|AlreadyProcessed/i.test(reason)) return;
    const { value } = await context.rpc
      .getSignatureStatuses([signature(transaction.txRef)], { searchTransactionHistory: true })
      .send();
    if (value[0]) return;
    throw new Error(`the node refused transaction ${transaction.txRef}: ${reason}`);
  }
}
