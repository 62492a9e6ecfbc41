import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

const deal = {
  id: 'deal-1',
  buyer_id: 'user-ada',
  seller_id: 'user-grace',
  counterparty_id: 'user-ada',
  buyer: { id: 'user-ada', username: 'ada', trading_tier: 'enhanced' },
  seller: { id: 'user-grace', username: 'grace', trading_tier: 'enhanced' },
  asset_chain: 'BTC',
  asset_symbol: 'BTC',
  asset_amount: '50000000',
  stable_chain: 'ETH',
  stable_symbol: 'USDC',
  stable_amount: '30000000000',
  meeting_required: false,
  travel_location: null,
  status: 'cancelled',
  created_at: '2026-03-04T10:00:00.000Z',
  updated_at: '2026-03-05T11:00:00.000Z',
  completed_at: null,
  history: [],
};

const entry = (seq: number, action: string, hash: string) => ({
  seq,
  action,
  actor_id: 'user-ada',
  payload: {},
  created_at: '2026-03-04T10:00:00.000Z',
  prev_hash: seq === 1 ? '0'.repeat(64) : 'a'.repeat(64),
  hash,
});

function openDeal(audit: { verified: boolean; broken_at_seq: number | null }) {
  const auth = createFakeAuthServer();
  auth.addUser('grace@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('grace@example.com')));
  const api = createFakeApiServer(auth);
  api.on('GET /deals/deal-1', { status: 200, body: deal });
  api.on('GET /deals/deal-1/audit', {
    status: 200,
    body: {
      deal_id: 'deal-1',
      entries: [entry(1, 'created', 'a'.repeat(64)), entry(2, 'cancelled', 'b'.repeat(64))],
      ...audit,
    },
  });
  renderApp('/trading/deals/deal-1', api.server);
  return api;
}

async function auditCard() {
  return within((await screen.findByRole('heading', { name: 'Audit trail' })).closest('section')!);
}

describe('AuditPanel', () => {
  it('shows a verified chain, its latest hash and how to check the export offline', async () => {
    openDeal({ verified: true, broken_at_seq: null });
    const card = await auditCard();
    expect(await card.findByText('Verified — 2 entries, chain intact')).toBeInTheDocument();
    expect(card.getByText('b'.repeat(64))).toBeInTheDocument();
    expect(card.getByText('npx covenant verify-audit deal-deal-1-audit.json')).toBeInTheDocument();
  });

  it('warns, naming the entry, when the chain does not verify', async () => {
    openDeal({ verified: false, broken_at_seq: 2 });
    const card = await auditCard();
    const warning = await card.findByRole('alert');
    expect(warning).toHaveTextContent('Verification failed at entry 2 (cancelled)');
    expect(card.queryByText(/chain intact/)).not.toBeInTheDocument();
  });

  it('downloads the export under the name the command expects', async () => {
    const api = openDeal({ verified: true, broken_at_seq: null });
    const file = JSON.stringify({ format: 'covenant-deal-audit/1', deal_id: 'deal-1', entries: [] });
    api.on('GET /deals/deal-1/audit/export', { status: 200, body: JSON.parse(file) });
    // jsdom has no object URLs.
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:audit'), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const card = await auditCard();
    await userEvent.click(await card.findByRole('button', { name: 'Download audit trail (JSON)' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toBe('deal-deal-1-audit.json');
    expect(api.requestsTo('GET /deals/deal-1/audit/export')).toHaveLength(1);
    click.mockRestore();
  });
});
