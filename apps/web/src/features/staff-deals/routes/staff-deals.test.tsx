import type { StaffDealSummary, StaffDealView } from '@covenant/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { staffDealLinkOf } from '@/features/staff-alerts/components/staff-alert-item.js';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

const dealId = '0b6f3c1e-6f0a-4c47-9a57-3f1f1d5f0a01';
const escrowId = '5d1e2a7b-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
const buyer = { id: '11111111-1111-4111-8111-111111111111', email: 'ada@example.com', username: 'ada' };
const seller = { id: '22222222-2222-4222-8222-222222222222', email: 'grace@example.com', username: null };
const mediatorId = '33333333-3333-4333-8333-333333333333';
const depositHash = `0x${'d'.repeat(64)}`;
const payoutHash = `0x${'e'.repeat(64)}`;
const btcDeposit = 'f'.repeat(64);

const summary: StaffDealSummary = {
  id: dealId,
  status: 'escrow_funded',
  asset_chain: 'BTC',
  asset_symbol: 'BTC',
  asset_amount: '50000000',
  stable_chain: 'ETH',
  stable_symbol: 'USDC',
  stable_amount: '30000000000',
  buyer,
  seller,
  created_at: '2026-03-04T10:00:00.000Z',
  matched: 'deal',
};

const view: StaffDealView = {
  deal: {
    id: dealId,
    buyer_id: buyer.id,
    seller_id: seller.id,
    buyer: { id: buyer.id, username: 'ada', trading_tier: 'enhanced' },
    seller: { id: seller.id, username: null, trading_tier: 'enhanced' },
    asset_chain: 'BTC',
    asset_symbol: 'BTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    meeting_required: false,
    travel_location: null,
    meeting: null,
    status: 'completed',
    terms_version: 2,
    terms_proposed_by: seller.id,
    funding_deadline_hours: 24,
    accepted_terms_version: 2,
    terms_hash: 'c'.repeat(64),
    terms_agreed_at: '2026-03-04T12:00:00.000Z',
    addresses: { buyer: null, seller: null },
    created_at: '2026-03-04T10:00:00.000Z',
    updated_at: '2026-03-05T10:00:00.000Z',
    completed_at: '2026-03-05T10:00:00.000Z',
  },
  parties: { buyer, seller },
  addresses: [
    { party: 'buyer', payout_address: 'bcrt1qbuyerpayout', refund_address: '0xBuyerRefund' },
    { party: 'seller', payout_address: '0xSellerPayout', refund_address: 'bcrt1qsellerrefund' },
  ],
  escrow: {
    id: escrowId,
    status: 'settled',
    legs: [
      {
        leg: 'asset',
        chain: 'BTC',
        symbol: 'BTC',
        token_address: null,
        required_amount: '50000000',
        deposit_address: 'bcrt1qescrowdeposit',
        depositor_refund_address: 'bcrt1qsellerrefund',
        receiver_payout_address: 'bcrt1qbuyerpayout',
        state: 'released',
        deadline: '2026-03-05T12:00:00.000Z',
        movements: [
          {
            kind: 'deposit',
            amount: '50000000',
            transaction_hash: btcDeposit,
            counterparty_address: 'bcrt1qsellerwallet',
            confirmations: 6,
            status: 'confirmed',
            created_at: '2026-03-04T13:00:00.000Z',
          },
        ],
      },
      {
        leg: 'stable',
        chain: 'ETH',
        symbol: 'USDC',
        token_address: '0xUsdc',
        required_amount: '30000000000',
        deposit_address: '0xEscrowDeposit',
        depositor_refund_address: '0xBuyerRefund',
        receiver_payout_address: '0xSellerPayout',
        state: 'released',
        deadline: '2026-03-05T12:00:00.000Z',
        movements: [
          {
            kind: 'deposit',
            amount: '30000000000',
            transaction_hash: depositHash,
            counterparty_address: '0xBuyerWallet',
            confirmations: 12,
            status: 'confirmed',
            created_at: '2026-03-04T14:00:00.000Z',
          },
        ],
      },
    ],
  },
  payouts: [
    {
      id: '44444444-4444-4444-8444-444444444444',
      leg: 'stable',
      chain: 'ETH',
      kind: 'release',
      source: 'settlement',
      status: 'confirmed',
      transaction_hash: payoutHash,
      error: null,
      submitted_at: '2026-03-05T09:00:00.000Z',
      confirmed_at: '2026-03-05T09:05:00.000Z',
      created_at: '2026-03-05T09:00:00.000Z',
    },
  ],
  audit: {
    deal_id: dealId,
    entries: [
      {
        seq: 1,
        action: 'created',
        actor_id: buyer.id,
        payload: {},
        created_at: '2026-03-04T10:00:00.000Z',
        prev_hash: '0'.repeat(64),
        hash: 'a'.repeat(64),
      },
      {
        seq: 2,
        action: 'staff_viewed',
        actor_id: mediatorId,
        payload: { via: 'deal_view' },
        created_at: '2026-03-06T10:00:00.000Z',
        prev_hash: 'a'.repeat(64),
        hash: 'b'.repeat(64),
      },
    ],
    verified: true,
    broken_at_seq: null,
  },
  alerts: [
    {
      id: '55555555-5555-4555-8555-555555555555',
      kind: 'escrow_reconciliation',
      subject: `${escrowId}:stable`,
      message: "The stable leg's books do not balance",
      details: { escrow_id: escrowId, leg: 'stable', held: '1' },
      created_at: '2026-03-05T11:00:00.000Z',
      resolved_at: null,
      resolved_by: null,
    },
    {
      id: '66666666-6666-4666-8666-666666666666',
      kind: 'escrow_reconciliation',
      subject: `${escrowId}:asset`,
      message: "The asset leg's books do not balance",
      details: { escrow_id: escrowId, leg: 'asset', held: '2' },
      created_at: '2026-03-05T10:00:00.000Z',
      resolved_at: '2026-03-05T10:30:00.000Z',
      resolved_by: 'compliance@demo.covenant.test',
    },
  ],
};

const chains = [
  { chain: 'BTC', chain_id: 0, fee_address: 'bcrt1qfee', explorer_url: null },
  { chain: 'ETH', chain_id: 31337, fee_address: '0xFee', explorer_url: 'https://explorer.example/' },
];

/** Opens `path` through the whole app (staff gate, header) as a user with `roles` at aal2. */
function open(path: string, roles: string[] = ['mediator']) {
  const auth = createFakeAuthServer();
  auth.addUser('mo@example.com', 'correct horse', { roles, totpCode: '135790' });
  window.localStorage.setItem(
    authStorageKey,
    JSON.stringify(auth.issueSession('mo@example.com', undefined, 'aal2')),
  );
  const api = createFakeApiServer(auth);
  api.on('GET /chains', { status: 200, body: { data: chains } });
  api.on('GET /staff/deals', (request) => ({
    status: 200,
    body: { data: [dealId, buyer.email].includes(request.query.get('q') ?? '') ? [summary] : [] },
  }));
  api.on(`GET /staff/deals/${dealId}`, { status: 200, body: view });
  return { api, ...renderApp(path, api.server) };
}

describe('/staff/deals', () => {
  it('searches on submit, lists the deal with its parties, and opens it', async () => {
    const { api, router } = open('/staff/deals');
    const box = await screen.findByLabelText('Search deals');
    await userEvent.type(box, ` ${dealId} `);
    expect(api.requestsTo('GET /staff/deals')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));

    const results = await screen.findByRole('list', { name: 'Deals found' });
    expect(api.requestsTo('GET /staff/deals').map((request) => request.query.get('q'))).toEqual([dealId]);
    expect(router.state.location.search).toBe(`?q=${dealId}`);
    expect(screen.getByRole('heading', { name: `1 deal for “${dealId}”` })).toBeInTheDocument();
    const row = within(results).getByRole('listitem');
    expect(row).toHaveTextContent('Buyer ada@example.com (@ada) · Seller grace@example.com');
    expect(row).toHaveTextContent('matched: Deal ID');
    const link = within(row).getByRole('link', { name: '0.5 BTC for 30000 USDC' });
    expect(link).toHaveAttribute('href', `/staff/deals/${dealId}`);

    await userEvent.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Deal' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Terms' })).toHaveTextContent('0.5 BTC on BTC');
    expect(api.requestsTo(`GET /staff/deals/${dealId}`)).toHaveLength(1);
  });

  it('runs the search in the address (a link from an alert) and says when nothing matches', async () => {
    const { api } = open('/staff/deals?q=nobody%40example.com');
    expect(await screen.findByText('No deal matches “nobody@example.com”.')).toBeInTheDocument();
    expect(screen.getByLabelText('Search deals')).toHaveValue('nobody@example.com');
    expect(api.requestsTo('GET /staff/deals')[0]!.query.get('q')).toBe('nobody@example.com');
  });

  it('says why a search failed', async () => {
    const { api } = open('/staff/deals?q=x');
    api.on('GET /staff/deals', apiError(503, 'UNAVAILABLE', 'The database is not answering'));
    expect(await screen.findByText('The search failed: The database is not answering')).toBeInTheDocument();
  });

  it('is linked from the account menu of compliance staff', async () => {
    open('/staff/deals', ['compliance']);
    await screen.findByLabelText('Search deals');
    const menu = screen.getByRole('navigation', { name: 'Account', hidden: true });
    expect(within(menu).getByRole('link', { name: 'Deals', hidden: true })).toHaveAttribute(
      'href',
      '/staff/deals',
    );
  });

  it('refuses a concierge (403) and traders (the staff gate), asking the API nothing', async () => {
    const { api } = open(`/staff/deals/${dealId}`, ['concierge']);
    expect(
      await screen.findByRole('heading', { name: '403 — Compliance staff and mediators only' }),
    ).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'Account', hidden: true });
    expect(within(menu).queryByRole('link', { name: 'Deals', hidden: true })).not.toBeInTheDocument();
    expect(api.requestsTo(`GET /staff/deals/${dealId}`)).toHaveLength(0);
  });

  it('refuses a trader', async () => {
    const { api } = open('/staff/deals?q=x', []);
    expect(await screen.findByRole('heading', { name: '403 — Staff only' })).toBeInTheDocument();
    expect(api.requestsTo('GET /staff/deals')).toHaveLength(0);
  });
});

describe('/staff/deals/:id', () => {
  it('shows terms, parties with e-mail, legs with explorer links, payouts, alerts and the audit trail', async () => {
    open(`/staff/deals/${dealId}`);
    const terms = await screen.findByRole('region', { name: 'Terms' });
    expect(terms).toHaveTextContent('30000 USDC on ETH');
    expect(terms).toHaveTextContent('2 agreed 4 Mar 2026, 12:00 UTC');

    const parties = screen.getByRole('region', { name: 'Parties' });
    expect(parties).toHaveTextContent('ada@example.com');
    expect(parties).toHaveTextContent('grace@example.com');
    expect(parties).toHaveTextContent('0xSellerPayout');

    const escrow = screen.getByRole('region', { name: 'Escrow' });
    expect(escrow).toHaveTextContent(escrowId);
    const stable = within(escrow).getByRole('region', { name: 'Stablecoin leg — USDC on ETH' });
    const movements = within(stable).getByRole('table', { name: 'On-chain movements of the stablecoin leg' });
    expect(within(movements).getByRole('columnheader', { name: 'Transaction' })).toBeInTheDocument();
    // ETH names an explorer: its hashes link there; BTC names none: its hash is shown unlinked.
    expect(await within(movements).findByRole('link', { name: new RegExp(depositHash) })).toHaveAttribute(
      'href',
      `https://explorer.example/tx/${depositHash}`,
    );
    const asset = within(escrow).getByRole('region', { name: 'Asset leg — BTC on BTC' });
    expect(within(asset).getByText(btcDeposit)).toBeInTheDocument();
    expect(within(asset).queryByRole('link')).not.toBeInTheDocument();
    expect(within(asset).getByRole('table')).toHaveTextContent('0.5 BTC');

    const payouts = screen.getByRole('region', { name: 'Payouts' });
    expect(within(payouts).getByRole('link', { name: new RegExp(payoutHash) })).toHaveAttribute(
      'href',
      `https://explorer.example/tx/${payoutHash}`,
    );
    expect(payouts).toHaveTextContent('settlement');

    const alerts = within(screen.getByRole('region', { name: 'Alerts' })).getByRole('list', {
      name: 'Alerts about this deal',
    });
    const [openAlert, resolvedAlert] = within(alerts).getAllByRole('listitem');
    expect(
      within(openAlert!).getByRole('heading', { name: 'Escrow books do not balance' }),
    ).toBeInTheDocument();
    expect(openAlert).toHaveTextContent('open');
    expect(resolvedAlert).toHaveTextContent(/resolved .* by compliance@demo\.covenant\.test/);

    const audit = screen.getByRole('region', { name: 'Audit trail' });
    expect(audit).toHaveTextContent('Verified — 2 entries, chain intact');
    const rows = within(within(audit).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      '#When (UTC)ActionByDetails',
      `14 Mar 2026, 10:00 UTCcreatedada@example.com (@ada), buyer—`,
      `26 Mar 2026, 10:00 UTCstaff viewed${mediatorId}{"via":"deal_view"}`,
    ]);
  });

  it('says when the escrow is not opened and nothing was paid', async () => {
    const { api } = open(`/staff/deals/${dealId}`);
    api.on(`GET /staff/deals/${dealId}`, {
      status: 200,
      body: { ...view, escrow: null, payouts: [], alerts: [] },
    });
    expect(
      await screen.findByText('The escrow is not opened yet: nothing was deposited.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No payout has been started.')).toBeInTheDocument();
    expect(screen.getByText('No alert about this deal or its escrow.')).toBeInTheDocument();
  });

  it('shows a broken audit chain as an alert', async () => {
    const { api } = open(`/staff/deals/${dealId}`);
    api.on(`GET /staff/deals/${dealId}`, {
      status: 200,
      body: { ...view, audit: { ...view.audit, verified: false, broken_at_seq: 2 } },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Verification failed at entry 2: the record was changed after it was written.',
    );
  });

  it('says so when no deal has the id, and asks once', async () => {
    const missing = '99999999-9999-4999-8999-999999999999';
    const { api } = open(`/staff/deals/${missing}`);
    api.on(`GET /staff/deals/${missing}`, apiError(404, 'NOT_FOUND', 'Deal not found'));
    expect(await screen.findByText(`No deal has the ID “${missing}”.`)).toBeInTheDocument();
    expect(api.requestsTo(`GET /staff/deals/${missing}`)).toHaveLength(1);
    expect(screen.getByRole('link', { name: /Back to Deals/ })).toHaveAttribute('href', '/staff/deals');
  });
});

describe('staffDealLinkOf', () => {
  it('links the deal an alert names, else searches its escrow, else nothing', () => {
    expect(staffDealLinkOf({ deal_id: dealId, escrow_id: escrowId })).toBe(`/staff/deals/${dealId}`);
    expect(staffDealLinkOf({ escrow_id: escrowId, leg: 'stable' })).toBe(`/staff/deals?q=${escrowId}`);
    expect(staffDealLinkOf({ chain: 'ETH' })).toBeNull();
  });
});
