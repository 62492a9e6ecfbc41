import type { FastifyReply } from 'fastify';
import { keepaliveIntervalMs, streamServerSentEvents } from '../plugins/server-sent-events.js';
import type { DealEventHub } from './deal-event-hub.js';

export { keepaliveIntervalMs } from '../plugins/server-sent-events.js';

/**
 * Answers with a `text/event-stream` of the deal's events until the client goes away or the server
 * stops: `event: deal` with `data: {"kind": …}` per event, a `: keepalive` comment every 15 s.
 */
export function streamDealEvents(
  hub: DealEventHub,
  reply: FastifyReply,
  dealId: string,
  intervalMs = keepaliveIntervalMs,
): void {
  streamServerSentEvents(reply, {
    eventName: 'deal',
    intervalMs,
    subscribe: (feed) => hub.subscribe(dealId, { event: (kind) => feed.send({ kind }), end: feed.end }),
  });
}
