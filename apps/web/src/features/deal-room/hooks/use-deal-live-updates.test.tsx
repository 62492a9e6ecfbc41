import { configure, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { renderApp } from '@/testing/render-app.js';

configure({ asyncUtilTimeout: 5000 });

/** The deal's event streams the page opened, each one fed by the test. */
type OpenedStream = { authorization: string | null; push(text: string): void; close(): void };

function openDealPage() {
  const { api } = openDealAsGrace();
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
  it('refreshes the deal on each event, and reconnects with the token after a drop', async () => {
    const { api, streams } = openDealPage();
    await screen.findByRole('heading', { name: /BTC for/ });
    await waitFor(() => expect(streams).toHaveLength(1));
    expect(streams[0]!.authorization).toMatch(/^Bearer .+/);
    const dealReads = () => api.requestsTo('GET /deals/deal-1').length;
    const messageReads = () => api.requestsTo('GET /deals/deal-1/messages').length;
    const before = { deal: dealReads(), messages: messageReads() };

    // A keepalive changes nothing; an event (even split across chunks) refreshes the deal and its panels.
    streams[0]!.push('retry: 3000\n\n: keepalive\n\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(dealReads()).toBe(before.deal);
    streams[0]!.push('event: deal\ndata: {"ki');
    streams[0]!.push('nd":"message"}\n\n');
    await waitFor(() => expect(dealReads()).toBe(before.deal + 1));
    await waitFor(() => expect(messageReads()).toBe(before.messages + 1));

    streams[0]!.close();
    await waitFor(() => expect(streams).toHaveLength(2), { timeout: 4000 });
    expect(streams[1]!.authorization).toMatch(/^Bearer .+/);
    // Events may have passed while it was away: the deal is read again on reconnecting.
    await waitFor(() => expect(dealReads()).toBe(before.deal + 2));
  });
});
