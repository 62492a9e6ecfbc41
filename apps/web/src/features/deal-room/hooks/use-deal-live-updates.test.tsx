import { configure, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { renderApp } from '@/testing/render-app.js';
import { coalesceMs } from './use-deal-live-updates.js';

configure({ asyncUtilTimeout: 5000 });

/** The deal's event streams the page opened, each one fed by the test. */
type OpenedStream = { authorization: string | null; push(text: string): void; close(): void };

function openDealPage(changes: Record<string, unknown> = {}) {
  const { api } = openDealAsGrace(changes);
  api.on('GET /deals/deal-1/messages', {
    status: 200,
    body: { data: [], has_more: false, next_cursor: null },
  });
  const streams: OpenedStream[] = [];
  const encoder = new TextEncoder();
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname !== '/api/v1/deals/deal-1/events') return api.server.fetch(input, init);
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (given) => {
        controller = given;
      },
    });
    streams.push({
      authorization: request.headers.get('authorization'),
      push: (text) => controller.enqueue(encoder.encode(text)),
      close: () => controller.close(),
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  };
  renderApp('/trading/deals/deal-1', { ...api.server, fetch });
  return { api, streams };
}

describe('useDealLiveUpdates', () => {
  it('re-reads what each event concerns, and everything after reconnecting with the token after a drop', async () => {
    const { api, streams } = openDealPage();
    await screen.findByRole('heading', { name: /BTC for/ });
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]!.authorization).toMatch(/^Bearer .+/);
    const dealReads = () => api.requestsTo('GET /deals/deal-1').length;
    const messageReads = () => api.requestsTo('GET /deals/deal-1/messages').length;
    const before = { deal: dealReads(), messages: messageReads() };

    // A keepalive changes nothing; a message (even split across chunks) re-reads the messages only.
    streams[0]!.push('retry: 3000\n\n: keepalive\n\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(dealReads()).toBe(before.deal);
    streams[0]!.push('event: deal\ndata: {"ki');
    streams[0]!.push('nd":"message"}\n\n');
    await waitFor(() => expect(messageReads()).toBe(before.messages + 1));
    await new Promise((resolve) => setTimeout(resolve, coalesceMs * 3));
    expect(dealReads()).toBe(before.deal);
    // An audit entry re-reads the deal and its panels.
    streams[0]!.push('event: deal\ndata: {"kind":"audit"}\n\n');
    await waitFor(() => expect(dealReads()).toBe(before.deal + 1));
    await waitFor(() => expect(messageReads()).toBe(before.messages + 2));

    streams[0]!.close();
    await waitFor(() => expect(streams).toHaveLength(2), { timeout: 4000 });
    expect(streams[1]!.authorization).toMatch(/^Bearer .+/);
    // Events may have passed while it was away: the deal is read again on reconnecting.
    await waitFor(() => expect(dealReads()).toBe(before.deal + 2));
  });

  it('re-reads only the escrow on an escrow event, and answers a burst of events with one refresh', async () => {
    const { api, streams } = openDealPage({
      status: 'terms_agreed',
      terms_agreed_at: '2026-03-04T11:00:00.000Z',
    });
    await screen.findByRole('heading', { name: /BTC for/ });
    await waitFor(() => expect(streams).toHaveLength(1));
    const dealReads = () => api.requestsTo('GET /deals/deal-1').length;
    const escrowReads = () => api.requestsTo('GET /deals/deal-1/escrow').length;
    await waitFor(() => expect(escrowReads()).toBeGreaterThan(0));
    const settle = () => new Promise((resolve) => setTimeout(resolve, coalesceMs * 3));
    await settle();
    const before = { deal: dealReads(), escrow: escrowReads() };

    // A deposit one block deeper: the escrow is read again, the deal is not.
    streams[0]!.push('event: deal\ndata: {"kind":"escrow"}\n\n');
    await waitFor(() => expect(escrowReads()).toBe(before.escrow + 1));
    await settle();
    expect(dealReads()).toBe(before.deal);

    // One change written as an audit entry and two escrow rows: one refresh of the deal (the escrow follows it).
    streams[0]!.push(
      'event: deal\ndata: {"kind":"escrow"}\n\nevent: deal\ndata: {"kind":"audit"}\n\nevent: deal\ndata: {"kind":"escrow"}\n\n',
    );
    await waitFor(() => expect(dealReads()).toBe(before.deal + 1));
    await settle();
    expect(dealReads()).toBe(before.deal + 1);
    expect(escrowReads()).toBe(before.escrow + 2);
  });
});
