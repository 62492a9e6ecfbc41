import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { DealEventHub } from './deal-event-hub.js';

/** A comment line this often keeps proxies and the browser from timing the stream out. */
export const keepaliveIntervalMs = 15_000;
/** How long the browser waits before it reconnects (the `retry:` field). */
const retryMs = 3_000;

/**
 * Answers with a `text/event-stream` of the deal's events until the client goes away or the server
 * stops: `event: deal` with `data: {"kind": …}` per event, a `: keepalive` comment every 15 s. The
 * reply is hijacked, so no onSend hook (and no compression) buffers it; the headers set so far
 * (security headers, CORS, rate limit, request id) are written with the stream's own.
 */
export function streamDealEvents(
  hub: DealEventHub,
  reply: FastifyReply,
  dealId: string,
  intervalMs = keepaliveIntervalMs,
): void {
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
  };
  const keepalive = setInterval(() => raw.write(': keepalive\n\n'), intervalMs);
  const unsubscribe = hub.subscribe(dealId, {
    event: (kind) => {
      raw.write(`event: deal\ndata: ${JSON.stringify({ kind })}\n\n`);
    },
    end: finish,
  });
  // The response closes when the client goes away (the request's own 'close' fires once it was read).
  raw.on('close', finish);
  raw.on('error', finish);
}
