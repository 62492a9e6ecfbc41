import { signature } from '@solana/kit';
import { type SolanaChainContext, stringifyWithBigInts } from './solana-chain-context.js';

const POLL_MS = 100;

/** Waits until the cluster has confirmed the transaction; throws when it failed or never landed. */
export async function waitForSolanaTransaction(context: SolanaChainContext, txRef: string): Promise<void> {
  const deadline = Date.now() + context.confirmTimeoutMs;
  while (Date.now() < deadline) {
    const { value } = await context.rpc.getSignatureStatuses([signature(txRef)]).send();
    const status = value[0];
    if (status?.err) throw new Error(`transaction ${txRef} failed: ${stringifyWithBigInts(status.err)}`);
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`transaction ${txRef} was not confirmed within ${context.confirmTimeoutMs} ms`);
}
