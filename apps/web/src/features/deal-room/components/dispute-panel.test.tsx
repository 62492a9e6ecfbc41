import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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
  status: 'terms_agreed',
  created_at: '2026-03-04T10:00:00.000Z',
  updated_at: '2026-03-05T11:00:00.000Z',
  completed_at: null,
  history: [],
};

const reason = 'The seller has not answered since the terms were agreed.';

function openDeal(status: string, disputes: unknown[]) {
  const auth = createFakeAuthServer();
  auth.addUser('grace@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('grace@example.com')));
  const api = createFakeApiServer(auth);
  api.on('GET /deals/deal-1', { status: 200, body: { ...deal, status } });
  api.on('GET /deals/deal-1/disputes', { status: 200, body: { data: disputes } });
  renderApp('/trading/deals/deal-1', api.server);
  return api;
}

describe('DisputePanel', () => {
  it('opens a dispute on an agreed deal after a confirm step', async () => {
    const api = openDeal('terms_agreed', []);
    api.on('POST /deals/deal-1/disputes', { status: 201, body: { id: 'dispute-1' } });
    await userEvent.click(await screen.findByRole('button', { name: 'Open a dispute' }));
    await userEvent.type(screen.getByLabelText('Reason'), 'Too short');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Describe the problem in at least 20 characters')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Reason'));
    await userEvent.type(screen.getByLabelText('Reason'), reason);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(api.requestsTo('POST /deals/deal-1/disputes')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Open the dispute' }));

    expect(await screen.findByText('Dispute opened')).toBeInTheDocument();
    const [sent] = api.requestsTo('POST /deals/deal-1/disputes');
    expect(sent!.body).toEqual({ reason });
    expect(sent!.headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('offers no dispute once a leg of the settlement has been paid out, and says why', async () => {
    const legOf = (leg: 'asset' | 'stable', status: string) => ({
      leg,
      chain: 'ETH',
      symbol: leg === 'asset' ? 'ETH' : 'USDC',
      amount: '1000',
      deposit_address: `0x${(leg === 'asset' ? 'a' : 'b').repeat(40)}`,
      depositor: leg === 'asset' ? 'seller' : 'buyer',
      received: '1000',
      pending: '0',
      confirmations: 3,
      required_confirmations: 3,
      state: status === 'collecting' ? 'funded' : 'releasing',
      deadline: '2026-03-06T10:00:00.000Z',
      refund_after: null,
      payout: {
        kind: 'release',
        source: 'settlement',
        status,
        transfers: [],
        network_fee: null,
        approved_by: [],
        transaction_hash: status === 'collecting' ? null : '0xabc',
      },
      release_typed_data: null,
      signer_address: null,
    });
    const api = openDeal('escrow_funded', []);
    api.on('GET /deals/deal-1/escrow', {
      status: 200,
      body: {
        escrow_id: 'escrow-1',
        deal_id: 'deal-1',
        status: 'funded',
        legs: [legOf('asset', 'submitted'), legOf('stable', 'collecting')],
        settlement_transactions: null,
      },
    });
    expect(
      await screen.findByText(
        /^The settlement is under way: a leg has been paid out, so the deal can no longer be disputed\./,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open a dispute' })).not.toBeInTheDocument();
  });

  it('shows an open dispute as under review, and a decision with its amounts per leg and rationale', async () => {
    const base = {
      deal_id: 'deal-1',
      opened_by: 'user-ada',
      status_before: 'escrow_funded',
      reason,
      decided_by: null,
      created_at: '2026-03-06T10:00:00.000Z',
      evidence: [
        {
          id: 'evidence-1',
          filename: 'chat.png',
          content_type: 'image/png',
          size: 2048,
          uploaded_by: 'user-ada',
          created_at: '2026-03-06T10:00:00.000Z',
        },
      ],
    };
    openDeal('completed', [
      {
        ...base,
        id: 'dispute-1',
        status: 'decided',
        mediator_id: 'user-mo',
        decision: 'split',
        // asset: 0.2 + 0.3 = 0.5 BTC; stable: 29999.999999 + 0.000001 = 30000 USDC
        amounts: {
          asset: { buyer: '20000000', seller: '30000000' },
          stable: { buyer: '29999999999', seller: '1' },
        },
        rationale: 'Half the BTC was delivered, so half goes back.',
        decided_at: '2026-03-07T10:00:00.000Z',
      },
    ]);
    expect(await screen.findByText('Decision: Split by the mediator')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Amounts per leg' });
    const asset = within(table).getByRole('row', { name: /Asset/ });
    expect(asset).toHaveTextContent('Asset (0.5 BTC)0.2 BTC0.3 BTC');
    expect(within(table).getByRole('row', { name: /Stable/ })).toHaveTextContent(
      'Stable (30000 USDC)29999.999999 USDC0.000001 USDC',
    );
    expect(screen.getByText('Half the BTC was delivered, so half goes back.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open a dispute' })).not.toBeInTheDocument();
  });

  it('says a mediator is reviewing a disputed deal', async () => {
    openDeal('disputed', [
      {
        id: 'dispute-1',
        deal_id: 'deal-1',
        status: 'open',
        reason,
        opened_by: 'user-ada',
        status_before: 'escrow_funded',
        mediator_id: null,
        evidence: [],
        decision: null,
        amounts: null,
        rationale: null,
        decided_by: null,
        decided_at: null,
        created_at: '2026-03-06T10:00:00.000Z',
      },
    ]);
    expect(await screen.findByText('A mediator is reviewing this deal')).toBeInTheDocument();
    expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.getByText('No evidence attached.')).toBeInTheDocument();
  });
});
