import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { apiError } from '@/testing/fake-api-server.js';
import { renderApp } from '@/testing/render-app.js';

configure({ asyncUtilTimeout: 5000 });

const message = (id: string, author: 'ada' | 'grace' | 'mediator', body: string) => ({
  id,
  author_id: author === 'ada' ? 'user-ada' : author === 'mediator' ? 'user-mia' : 'grace-id',
  author_role: author === 'ada' ? 'buyer' : author === 'mediator' ? 'mediator' : 'seller',
  author_name: author === 'ada' ? 'ada' : author === 'mediator' ? 'mia' : 'GraceHopper',
  body,
  created_at: '2026-03-05T10:00:00.000Z',
});

// Grace (the seller) opens a deal with Ada; the test says the deal's status and the room's messages.
function openDeal({ status = 'draft', pages }: { status?: string; pages: Record<string, unknown> }) {
  const { api, grace } = openDealAsGrace({ status });
  // Grace's id is the fake auth server's: her messages are written as 'grace-id' and given it here.
  api.on('GET /deals/deal-1/messages', (request) => ({
    status: 200,
    body: JSON.parse(
      JSON.stringify(
        pages[request.query.get('cursor') ?? ''] ?? { data: [], has_more: false, next_cursor: null },
      ).replaceAll('grace-id', grace.id),
    ),
  }));
  renderApp('/trading/deals/deal-1', api.server);
  return { api, grace };
}

describe('the deal room’s messages', () => {
  it('shows every page oldest first, with names, roles (the mediator marked) and times', async () => {
    openDeal({
      status: 'disputed',
      pages: {
        '': { data: [message('m1', 'ada', 'Hello Grace')], has_more: true, next_cursor: 'm1' },
        m1: {
          data: [message('m2', 'grace', 'Hi Ada'), message('m3', 'mediator', 'I am reviewing the dispute.')],
          has_more: false,
          next_cursor: null,
        },
      },
    });
    const list = await screen.findByRole('list', { name: 'Messages' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('ada');
    expect(items[0]).toHaveTextContent('Buyer');
    expect(items[0]).toHaveTextContent('Hello Grace');
    expect(items[1]).toHaveTextContent('GraceHopper (you)');
    expect(items[1]).toHaveTextContent('Seller');
    expect(items[2]).toHaveTextContent('mia');
    expect(within(items[2]!).getByText('Mediator')).toHaveClass('font-semibold');
    expect(items[2]).toHaveTextContent(new Date('2026-03-05T10:00:00.000Z').toLocaleString());
  });

  it('sends on Enter, keeps Shift+Enter for a new line, and shows the new message', async () => {
    const sent: unknown[] = [];
    const { api } = openDeal({ pages: {} });
    api.on('POST /deals/deal-1/messages', (request) => {
      sent.push(request.body);
      api.on('GET /deals/deal-1/messages', {
        status: 200,
        body: { data: [message('m9', 'grace', 'Line one\nLine two')], has_more: false, next_cursor: null },
      });
      return { status: 201, body: message('m9', 'grace', 'Line one\nLine two') };
    });
    expect(await screen.findByText(/No messages yet/)).toBeInTheDocument();
    const box = screen.getByLabelText('Message');
    await userEvent.type(box, 'Line one{Shift>}{Enter}{/Shift}Line two');
    expect(sent).toEqual([]);
    await userEvent.type(box, '{Enter}');
    await waitFor(() => expect(sent).toEqual([{ body: 'Line one\nLine two' }]));
    expect(api.requestsTo('POST /deals/deal-1/messages')[0]?.headers.get('idempotency-key')).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Messages' });
    expect(within(list).getByText(/Line one/)).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue(''));
  });

  it('refuses a blank message without asking the server, and shows the server’s refusal', async () => {
    const { api } = openDeal({ pages: {} });
    api.on(
      'POST /deals/deal-1/messages',
      apiError(409, 'DEAL_NOT_ACTIVE', 'The deal is closed; no more messages can be posted'),
    );
    await screen.findByText(/No messages yet/);
    await userEvent.type(screen.getByLabelText('Message'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Write a message first')).toBeInTheDocument();
    expect(api.requestsTo('POST /deals/deal-1/messages')).toEqual([]);

    await userEvent.type(screen.getByLabelText('Message'), 'Still there?');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    // Other panels of the page may show alerts of their own: find this one by its text.
    const refusal = await screen.findByText('The deal is closed; no more messages can be posted');
    expect(refusal).toHaveAttribute('role', 'alert');
  });

  it('has no composer on a closed deal, and says why', async () => {
    openDeal({
      status: 'cancelled',
      pages: { '': { data: [message('m1', 'ada', 'Bye')], has_more: false, next_cursor: null } },
    });
    expect(
      await screen.findByText('This deal is cancelled: no new messages can be posted.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Message')).not.toBeInTheDocument();
    expect(await screen.findByText('Bye')).toBeInTheDocument();
  });
});
