import WebSocket from 'ws';
import type { NewBlockHandlers, NewBlockSubscription } from './escrow-chain-adapter.js';

/** How long the node has to accept the connection and the subscription. */
const SUBSCRIBE_TIMEOUT_MS = 10_000;

/**
 * A JSON-RPC pub/sub subscription over WebSocket, as Ethereum nodes (`eth_subscribe`) and Solana's
 * RPC (`slotSubscribe`) offer it: connects, sends `method(params)`, and calls `onBlock` for every
 * notification of the subscription id the node answered. A refused subscription, a connection
 * that closes or fails, or no answer within 10 s is `onError`, once; the subscription is then over.
 */
export function subscribeOverWebSocket(
  url: string,
  method: string,
  params: unknown[],
  handlers: NewBlockHandlers,
): NewBlockSubscription {
  const socket = new WebSocket(url);
  let subscriptionId: unknown;
  let over = false;
  const fail = (error: unknown) => {
    if (over) return;
    over = true;
    clearTimeout(timeout);
    socket.terminate();
    handlers.onError(error);
  };
  const timeout = setTimeout(
    () => fail(new Error(`${method} at ${url}: no subscription after ${SUBSCRIBE_TIMEOUT_MS} ms`)),
    SUBSCRIBE_TIMEOUT_MS,
  );
  timeout.unref();
  socket.on('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })));
  socket.on('message', (data) => {
    if (over) return;
    let message: {
      id?: unknown;
      result?: unknown;
      error?: { message?: string };
      params?: { subscription?: unknown };
    };
    try {
      message = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (message.id === 1) {
      if (message.error || message.result === undefined || message.result === null) {
        fail(new Error(`${method} at ${url} refused: ${message.error?.message ?? 'no subscription id'}`));
        return;
      }
      subscriptionId = message.result;
      clearTimeout(timeout);
      return;
    }
    if (subscriptionId !== undefined && message.params?.subscription === subscriptionId) handlers.onBlock();
  });
  socket.on('error', (error) => fail(error));
  socket.on('close', (code) => fail(new Error(`${method} at ${url}: connection closed (${code})`)));
  return {
    async stop() {
      if (over) return;
      over = true;
      clearTimeout(timeout);
      if (socket.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.terminate();
      });
    },
  };
}
