import type { NewBlockHandlers, NewBlockSubscription } from '../escrow-chain-adapter.js';
import type { BitcoinRpc } from './bitcoin-rpc.js';

/** How long one `waitforblockheight` waits: under Bitcoin Core's 30-second `rpcservertimeout`. */
const WAIT_MS = 20_000;

/**
 * New blocks as the node connects them, through Bitcoin Core's long poll `waitforblockheight`
 * (the node answers the moment its tip reaches the height asked for): each answer with a higher tip
 * is `onBlock`, and the next wait asks for the block after it. Bitcoin Core offers no WebSocket;
 * this needs nothing beyond the JSON-RPC the adapter already uses (ZMQ would need another port and
 * a native library). A failed call is `onError`, once; the subscription is then over.
 */
export function subscribeBitcoinBlocks(rpc: BitcoinRpc, handlers: NewBlockHandlers): NewBlockSubscription {
  const abort = new AbortController();
  const { signal } = abort;
  const follow = async () => {
    let height = await rpc<number>('getblockcount', [], { signal });
    while (!signal.aborted) {
      const tip = await rpc<{ hash: string; height: number }>('waitforblockheight', [height + 1, WAIT_MS], {
        signal,
        timeoutMs: WAIT_MS + 10_000,
      });
      if (signal.aborted) return;
      if (tip.height > height) {
        height = tip.height;
        handlers.onBlock();
      }
    }
  };
  const following = follow().catch((error: unknown) => {
    if (!signal.aborted) handlers.onError(error);
  });
  return {
    async stop() {
      abort.abort();
      await following;
    },
  };
}
