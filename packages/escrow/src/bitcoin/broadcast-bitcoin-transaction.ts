import type { SignedTransaction } from '../escrow-chain-adapter.js';
import {
  type BitcoinRpc,
  BitcoinRpcError,
  RPC_VERIFY_ALREADY_IN_CHAIN,
  unknownToNull,
} from './bitcoin-rpc.js';

const ACCEPT_POLLS = 50;
const ACCEPT_POLL_MS = 40;

/**
 * Sends a signed transaction and waits until the node holds it (mempool or chain). A transaction
 * the node already knows or has mined is not an error. Bitcoin Core refuses a bad transaction in
 * sendrawtransaction's answer, and that reason is thrown; bcoin answers with the txid before
 * checking and only logs a refusal, so the transaction not showing up is the refusal there.
 */
export async function broadcastBitcoinTransaction(
  rpc: BitcoinRpc,
  transaction: SignedTransaction,
): Promise<void> {
  try {
    await rpc('sendrawtransaction', [transaction.rawTransaction]);
  } catch (error) {
    const known =
      error instanceof BitcoinRpcError &&
      (error.code === RPC_VERIFY_ALREADY_IN_CHAIN ||
        /already (in|known)|txn-already/i.test(error.rpcMessage));
    if (!known) {
      const reason = error instanceof BitcoinRpcError ? error.rpcMessage : (error as Error).message;
      throw new Error(`the node refused transaction ${transaction.txRef}: ${reason}`);
    }
  }
  for (let poll = 0; poll < ACCEPT_POLLS; poll++) {
    const held = await rpc<string>('getrawtransaction', [transaction.txRef]).then(
      () => true,
      (error: unknown) => unknownToNull(error) ?? false,
    );
    if (held) return;
    await new Promise((resolve) => setTimeout(resolve, ACCEPT_POLL_MS));
  }
  throw new Error(
    `the node refused transaction ${transaction.txRef}: it is in neither its mempool nor its chain (bcoin logs the reason instead of returning it)`,
  );
}
