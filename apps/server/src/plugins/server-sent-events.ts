import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

/** A comment line this often keeps proxies and the browser from timing the stream out. */
export const keepaliveIntervalMs = 15_000;
/** How long the browser waits before it reconnects (the `retry:` field). */
const retryMs = 3_000;

export interface EventStreamOptions {
  /** Starts the feed: `send(data)` writes one `event: <eventName>`; returns the unsubscribe function. */
  subscribe(feed: { send(data: unknown): void; end(): void }): () => void;
  eventName: string;
  intervalMs?: number;
  /** Called at each keepalive (and not after the stream ended). */
  onKeepalive?: () => void;
  /** Called once when the stream ends, whoever ends it. */
  onEnd?: () => void;
}

/**
 * Answers with a `text/event-stream` until the client goes away or the feed ends it: one
 * `event: <name>` with JSON `data:` per event, a `: keepalive` comment every 15 s. The reply is
 * hijacked, so no onSend hook (and no compression) buffers it; the headers set so far (security
 * headers, CORS, rate limit, request id) are written with the stream's own.
 */
export function streamServerSentEvents(reply: FastifyReply, options: EventStreamOptions): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise hold the events back in their buffers.
    'x-accel-buffering': 'no',
  });
  raw.write(`retry: ${retryMs}\n\n`);

  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    unsubscribe();
    if (!raw.writableEnded) raw.end();
    options.onEnd?.();
  };
  const keepalive = setInterval(() => {
    raw.write(': keepalive\n\n');
    options.onKeepalive?.();
  }, options.intervalMs ?? keepaliveIntervalMs);
  const unsubscribe = options.subscribe({
    send: (data) => {
      if (!ended) raw.write(`event: ${options.eventName}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end: finish,
  });
  // The response closes when the client goes away (the request's own 'close' fires once it was read).
  raw.on('close', finish);
  raw.on('error', finish);
}
