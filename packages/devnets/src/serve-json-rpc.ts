import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { stringifyRpcJson } from './json-with-bigints.js';

/** A JSON-RPC error reply: its code, message and optional data. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export type RpcMethod = (params: unknown[]) => unknown | Promise<unknown>;

interface JsonRpcReply {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * A pub/sub topic served over WebSocket as Solana's RPC serves its subscriptions: `<name>Subscribe`
 * answers a subscription id, `<name>Unsubscribe` takes it back (true), and each publication is a
 * `<name>Notification` with `{ result, subscription }`.
 */
export interface PubSubTopic {
  subscribe: string;
  unsubscribe: string;
  notification: string;
}

/**
 * Serves JSON-RPC 2.0 (single and batch requests) over HTTP POST on 127.0.0.1, replying as solana's
 * RPC does: -32700 for unparsable JSON, -32600 for a malformed request, -32601 for an unknown method.
 * With `topics`, the same port also serves their subscriptions over WebSocket; `publish` notifies
 * every subscriber of a topic.
 */
export async function serveJsonRpc(
  methods: Record<string, RpcMethod>,
  port: number,
  topics: PubSubTopic[] = [],
): Promise<{ url: string; publish(topic: PubSubTopic, result: unknown): void; close(): Promise<void> }> {
  const call = async (request: unknown): Promise<JsonRpcReply> => {
    const { id = null, jsonrpc, method, params = [] } = (request ?? {}) as Record<string, unknown>;
    if (jsonrpc !== '2.0' || typeof method !== 'string') {
      return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } };
    }
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
    if (!Array.isArray(params))
      return { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params' } };
    try {
      return { jsonrpc: '2.0', id, result: await handler(params) };
    } catch (error) {
      if (error instanceof RpcError) {
        const data = error.data === undefined ? {} : { data: error.data };
        return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, ...data } };
      }
      // A devnet: the cause helps whoever runs it more than it could hurt.
      return {
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: `Internal error: ${(error as Error).message}` },
      };
    }
  };

  const reply = async (body: string): Promise<unknown> => {
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    }
    if (!Array.isArray(payload)) return call(payload);
    if (payload.length === 0)
      return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } };
    return Promise.all(payload.map(call));
  };

  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      const healthy = request.method === 'GET' && request.url === '/health';
      response.writeHead(healthy ? 200 : 405, { 'content-type': 'text/plain' }).end(healthy ? 'ok' : '');
      return;
    }
    readBody(request)
      .then(reply)
      .then((payload) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(stringifyRpcJson(payload));
      })
      .catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
  });
  const pubSub = new WebSocketServer({ server });
  /** Each topic's subscribers: subscription id → the socket. */
  const subscribers = new Map<PubSubTopic, Map<number, import('ws').WebSocket>>(
    topics.map((topic) => [topic, new Map()]),
  );
  let nextSubscription = 0;
  pubSub.on('connection', (socket) => {
    const send = (payload: unknown) => socket.send(stringifyRpcJson(payload));
    socket.on('message', (data) => {
      let request: { id?: unknown; method?: unknown; params?: unknown };
      try {
        request = JSON.parse(data.toString());
      } catch {
        send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
        return;
      }
      const id = request.id ?? null;
      const subscribed = topics.find((topic) => topic.subscribe === request.method);
      const unsubscribed = topics.find((topic) => topic.unsubscribe === request.method);
      if (subscribed) {
        const subscription = nextSubscription++;
        subscribers.get(subscribed)?.set(subscription, socket);
        send({ jsonrpc: '2.0', id, result: subscription });
      } else if (unsubscribed) {
        const [subscription] = Array.isArray(request.params) ? request.params : [];
        const mine = subscribers.get(unsubscribed)?.get(subscription) === socket;
        if (mine) subscribers.get(unsubscribed)?.delete(subscription);
        send({ jsonrpc: '2.0', id, result: mine });
      } else {
        send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
      }
    });
    socket.on('close', () => {
      for (const topicSubscribers of subscribers.values()) {
        for (const [subscription, subscriber] of topicSubscribers) {
          if (subscriber === socket) topicSubscribers.delete(subscription);
        }
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    publish(topic, result) {
      for (const [subscription, socket] of subscribers.get(topic) ?? []) {
        socket.send(
          stringifyRpcJson({ jsonrpc: '2.0', method: topic.notification, params: { result, subscription } }),
        );
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of pubSub.clients) socket.terminate();
        pubSub.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
