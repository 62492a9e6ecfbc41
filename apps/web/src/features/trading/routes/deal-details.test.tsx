import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

configure({ asyncUtilTimeout: 5000 });

const deal = {
  id: 'deal-1',
  buyer_id: 'user-ada',
  seller_id: 'user-grace',
  counterparty_id: 'user-ada',
  buyer: { id: 'user-ada', username: 'ada', trading_tier: 'enhanced' },
  seller: { id: 'user-grace', username: 'GraceHopper', trading_tier: 'institutional' },
  asset_chain: 'ETH',
  asset_symbol: 'WBTC',
  asset_amount: '123456789',
  stable_chain: 'SOL',
  stable_symbol: 'USDC',
  stable_amount: '75000000000',
  meeting_required: true,
  travel_location: 'Zurich, CH',
  status: 'disputed',
  created_at: '2026-03-04T10:00:00.000Z',
  updated_at: '2026-03-05T11:00:00.000Z',
  completed_at: null,
  history: [
    {
      seq: 1,
      action: 'deal.created',
      actor_id: 'user-ada',
      created_at: '2026-03-04T10:00:00.000Z',
      details: {},
    },
  ],
};

function openDeal(reply: { status: number; body?: unknown }) {
  const auth = createFakeAuthServer();
  auth.addUser('grace@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('grace@example.com')));
  const api = createFakeApiServer(auth);
  api.on('GET /deals/deal-1', reply);
  renderApp('/trading/deals/deal-1', api.server);
  return api;
}

describe('/trading/deals/:id', () => {
  it('shows every field of the deal and its history', async () => {
    openDeal({ status: 200, body: deal });
    expect(
      await screen.findByRole('heading', { name: '1.23456789 WBTC for 75000 USDC' }),
    ).toBeInTheDocument();
    const value = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(value('Deal ID')).toHaveTextContent('deal-1');
    expect(value('Status')).toHaveTextContent('Disputed');
    expect(value('Buyer')).toHaveTextContent('ada (Enhanced Tier)');
    expect(value('Seller')).toHaveTextContent('GraceHopper (Institutional Tier)');
    expect(value('Asset')).toHaveTextContent('1.23456789 WBTC on ETH');
    expect(value('Stable')).toHaveTextContent('75000 USDC on SOL');
    expect(value('Chains')).toHaveTextContent('ETH → SOL');
    expect(value('Meeting Required')).toHaveTextContent('Yes');
    expect(value('Meeting Location')).toHaveTextContent('Zurich, CH');
    expect(value('Created')).toHaveTextContent(new Date(deal.created_at).toLocaleString());
    expect(value('Updated')).toHaveTextContent(new Date(deal.updated_at).toLocaleString());
    expect(value('Completed')).toHaveTextContent('—');
    const history = within(screen.getByRole('list', { name: 'Deal history' }));
    expect(history.getByText('deal.created')).toBeInTheDocument();
    expect(history.getByText(/^ada ·/)).toBeInTheDocument();
  });

  it('says a deal is not there when the server answers 404, as it does for deals of others', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = openDeal(apiError(404, 'NOT_FOUND', 'Deal not found'));
    expect(
      await screen.findByText('This deal does not exist, or you are not a party to it.'),
    ).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith('Error fetching trade:', expect.objectContaining({ status: 404 }));
    expect(api.requestsTo('GET /deals/deal-1')).toHaveLength(1);
  });
});
