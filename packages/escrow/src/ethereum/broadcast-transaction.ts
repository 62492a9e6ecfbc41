import { type PublicClient, TransactionNotFoundError } from 'viem';
import type { SignedTransaction } from './ethereum-escrow-chain.js';

// What nodes answer when a transaction is sent again: geth/anvil "already known" or "nonce too low",
// others "known transaction" or "already imported".
const resentPattern = /already known|nonce too low|known transaction|already imported/i;

/**
 * Sends a signed transaction. Sending one again (a job retried after a crash) is not an error when
 * the node knows that very transaction, pending or mined; a nonce taken by a different transaction
 * still throws.
 */
export async function broadcastTransaction(
  client: PublicClient,
  transaction: SignedTransaction,
): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: transaction.rawTransaction });
  } catch (error) {
    if (!(error instanceof Error) || !resentPattern.test(error.message)) throw error;
    if (!(await isKnown(client, transaction))) throw error;
  }
}

async function isKnown(client: PublicClient, transaction: SignedTransaction): Promise<boolean> {
  try {
    await client.getTransaction({ hash: transaction.txRef });
    return true;
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return false;
    throw error;
  }
}
