import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DealEventHub, DealEventSubscriber } from './deal-event-hub.js';
import { streamDealEvents } from './stream-deal-events.js';

/** A hub the test drives by hand: who subscribed, and who let go. */
const subscribers = new Map<string, DealEventSubscriber>();
const hub: DealEventHub = {
  start: async () => {},
  stop: async () => {},
  subscribe: (dealId, subscriber) => {
    subscribers.set(dealId, subscriber);
    return () => subscribers.delete(dealId);
  },
  onAnyEvent: () => () => {},
  subscriberCount: () => subscribers.size,
};

let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  app = Fastify();
  app.get<{ Params: { id: string } }>('/deals/:id/events', async (request, reply) => {
    reply.header('x-from-a-hook', 'kept');
    streamDealEvents(hub, reply, request.params.id, 50);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app?.close();
});

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean) {
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

describe('streamDealEvents', () => {
  it('sends retry first, a keepalive comment at each interval, and each event of the deal', async () => {
    const response = await fetch(`${baseUrl}/deals/d1/events`);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-from-a-hook')).toBe('kept');
    const reader = response.body!.getReader();
    const start = await readUntil(reader, (text) => text.split(': keepalive\n\n').length > 2);
    expect(start.startsWith('retry: 3000\n\n: keepalive\n\n: keepalive\n\n')).toBe(true);
    subscribers.get('d1')!.event('audit');
    const event = await readUntil(reader, (text) => text.includes('event: deal'));
    expect(event).toContain('event: deal\ndata: {"kind":"audit"}\n\n');
    await reader.cancel();
    await expect.poll(() => subscribers.has('d1')).toBe(false);
  });

  it('ends the response when the hub stops', async () => {
    const response = await fetch(`${baseUrl}/deals/d2/events`);
    const body = response.text();
    await expect.poll(() => subscribers.has('d2')).toBe(true);
    subscribers.get('d2')!.end();
    expect(await body).toMatch(/^retry: 3000\n\n/);
    expect(subscribers.has('d2')).toBe(false);
  });
});
