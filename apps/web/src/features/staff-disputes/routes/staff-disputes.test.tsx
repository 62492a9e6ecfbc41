import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppProvider } from '@/app/provider.js';
import { QueryScope } from '@/app/query-scope.js';
import { paths } from '@/config/paths.js';
import { authStorageKey, createAuthClient } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { StaffDisputeRoute } from './dispute.js';
import { StaffDisputesRoute } from './disputes.js';

// The console's own routes, without the app's staff gate (tested where it is built): what these
// pages do with the API's answers, 403 included.
function renderConsole(path: string) {
  const auth = createFakeAuthServer();
  auth.addUser('mo@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('mo@example.com')));
  const api = createFakeApiServer(auth);
  vi.stubGlobal('fetch', api.server.fetch);
  const authClient = createAuthClient(window.location.origin);
  onTestFinished(() => authClient.stopAutoRefresh());
  const router = createMemoryRouter(
    [
      { path: paths.staffDisputes, Component: StaffDisputesRoute },
      { path: paths.staffDispute, Component: StaffDisputeRoute },
    ],
    { initialEntries: [path] },
  );
  render(
    <AppProvider authClient={authClient}>
      <QueryScope>
        <RouterProvider router={router} />
      </QueryScope>
    </AppProvider>,
  );
  return { api, router };
}

const party = (id: string, username: string) => ({ id, username });
const summary = {
  id: 'dispute-1',
  status: 'open',
  reason: 'The seller stopped answering.',
  created_at: '2026-03-06T10:00:00.000Z',
  decided_at: null,
  mediator: null,
  deal: {
    id: 'deal-1',
    status: 'disputed',
    asset_chain: 'BTC',
    asset_symbol: 'BTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    buyer: party('user-ada', 'ada'),
    seller: party('user-grace', 'grace'),
  },
};

const caseBody = {
  dispute: {
    id: 'dispute-1',
    deal_id: 'deal-1',
    status: 'open',
    reason: 'The seller stopped answering after the terms were agreed.',
    opened_by: 'user-ada',
    status_before: 'escrow_funded',
    mediator_id: null,
    evidence: [
      {
        id: 'evidence-1',
        filename: 'chat.png',
        content_type: 'image/png',
        size: 4096,
        uploaded_by: 'user-ada',
        created_at: '2026-03-06T10:00:00.000Z',
      },
    ],
    decision: null,
    amounts: null,
    effect: null,
    rationale: null,
    decided_by: null,
    decided_at: null,
    created_at: '2026-03-06T10:00:00.000Z',
  },
  deal: {
    id: 'deal-1',
    buyer_id: 'user-ada',
    seller_id: 'user-grace',
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
    status: 'disputed',
    created_at: '2026-03-04T10:00:00.000Z',
    updated_at: '2026-03-06T10:00:00.000Z',
    completed_at: null,
  },
  cis: { buyer: null, seller: null },
  terms_versions: [
    {
      version: 1,
      proposed_by: 'user-ada',
      terms: { asset_amount: '50000000', funding_deadline_hours: 24 },
      created_at: '2026-03-04T10:00:00.000Z',
    },
  ],
  messages: [
    {
      id: 'message-1',
      author_id: 'user-grace',
      body: 'Funds are on the way.',
      created_at: '2026-03-05T10:00:00.000Z',
    },
  ],
  audit: {
    deal_id: 'deal-1',
    entries: [
      {
        seq: 1,
        action: 'created',
        actor_id: 'user-ada',
        payload: {},
        created_at: '2026-03-04T10:00:00.000Z',
        prev_hash: '0'.repeat(64),
        hash: 'a'.repeat(64),
      },
    ],
    verified: true,
    broken_at_seq: null,
  },
  meeting: {
    required: true,
    meeting: {
      location: 'Lindenhof, Zurich',
      latitude: '47.3729',
      longitude: '8.5409',
      starts_on: '2026-03-06',
      duration: '1-2',
      travel_paid_by: 'seller',
    },
    status: 'open',
    window: { opens: '2026-03-05T00:00:00.000Z', closes: '2026-03-09T00:00:00.000Z' },
    check_ins: [
      {
        party: 'seller',
        at: '2026-03-06T12:00:00.000Z',
        method: 'code',
        within_radius: false,
        distance_meters: 9120,
        position: { latitude: 47.4582, longitude: 8.5555 },
      },
    ],
    waived_by: [],
    settlement_waits: true,
    proposed_change: null,
  },
  escrow_opened: true,
  escrow_short_legs: [],
  escrow_travel: [],
  escrow_decide_by: null,
};

describe('/staff/disputes', () => {
  it('lists the queue with links to each case and filters by status', async () => {
    const { api } = renderConsole('/staff/disputes');
    api.on('GET /staff/disputes', (request) => ({
      status: 200,
      body: { data: request.query.get('status') === 'decided' ? [] : [summary] },
    }));
    const link = await screen.findByRole('link', { name: '0.5 BTC for 30000 USDC' });
    expect(link).toHaveAttribute('href', '/staff/disputes/dispute-1');
    const row = link.closest('tr')!;
    expect(row).toHaveTextContent('ada (buyer)');
    expect(row).toHaveTextContent('grace (seller)');
    expect(within(row).getByRole('link', { name: /^Deal view/ })).toHaveAttribute(
      'href',
      '/staff/deals/deal-1',
    );
    expect(api.requestsTo('GET /staff/disputes')[0]!.query.get('status')).toBe('open');

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'decided');
    expect(await screen.findByText('No disputes here.')).toBeInTheDocument();
    expect(api.requestsTo('GET /staff/disputes').at(-1)!.query.get('status')).toBe('decided');
  });

  it('explains a 403 instead of showing an empty queue', async () => {
    const { api } = renderConsole('/staff/disputes');
    api.on(
      'GET /staff/disputes',
      apiError(403, 'FORBIDDEN', 'The dispute console is open to mediator staff only'),
    );
    expect(await screen.findByRole('heading', { name: '403 — Mediators only' })).toBeInTheDocument();
    expect(screen.getByText('The dispute console is open to mediators only.')).toBeInTheDocument();
  });
});

describe('/staff/disputes/:id', () => {
  it('shows the whole case and lets the mediator take it', async () => {
    const { api } = renderConsole('/staff/disputes/dispute-1');
    api.on('GET /staff/disputes/dispute-1', { status: 200, body: caseBody });
    api.on('POST /staff/disputes/dispute-1/assign', { status: 200, body: caseBody.dispute });

    expect(
      await screen.findByText('The seller stopped answering after the terms were agreed.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the deal in the staff deal view' })).toHaveAttribute(
      'href',
      '/staff/deals/deal-1',
    );
    const deal = screen.getByRole('region', { name: 'Deal' });
    expect(deal).toHaveTextContent('0.5 BTC on BTC');
    expect(deal).toHaveTextContent('30000 USDC on ETH');
    expect(
      within(screen.getByRole('region', { name: 'Evidence' })).getByRole('button', {
        name: 'Download chat.png',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Messages' })).toHaveTextContent('Funds are on the way.');
    expect(screen.getByRole('region', { name: 'Terms versions' })).toHaveTextContent('Version 1');
    expect(screen.getByRole('region', { name: 'Audit trail' })).toHaveTextContent('Verified');
    expect(screen.getByText('The buyer attached no CIS.')).toBeInTheDocument();
    const meeting = screen.getByRole('region', { name: 'Meeting' });
    expect(meeting).toHaveTextContent('Lindenhof, Zurich (47.3729, 8.5409)');
    expect(within(meeting).getByRole('list', { name: 'Check-ins' })).toHaveTextContent(
      /grace \(seller\) checked in by code on .*, outside the radius \(flagged\), 9120 m from the place at 47.4582, 8.5555/,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Take this case' }));
    expect(api.requestsTo('POST /staff/disputes/dispute-1/assign')).toHaveLength(1);
  });

  it('says that a decision on a deal disputed before its escrow opened cancelled the deal', async () => {
    const { api } = renderConsole('/staff/disputes/dispute-1');
    api.on('GET /staff/disputes/dispute-1', {
      status: 200,
      body: {
        ...caseBody,
        escrow_opened: false,
        deal: { ...caseBody.deal, status: 'cancelled' },
        dispute: {
          ...caseBody.dispute,
          status: 'decided',
          status_before: 'terms_agreed',
          decision: 'release',
          effect: 'deal_cancelled',
          rationale: 'The parties agreed in the deal room to stop before funding.',
          decided_by: 'user-mediator',
          decided_at: '2026-03-07T10:00:00.000Z',
        },
      },
    });
    const decision = await screen.findByRole('region', { name: 'Decision' });
    expect(decision).toHaveTextContent(
      'The decision cancelled the deal: it was disputed before its escrow opened, so nothing was deposited and no money moved.',
    );
  });

  it('asks for a second factor when the API answers 403 with required_aal', async () => {
    const { api } = renderConsole('/staff/disputes/dispute-1');
    api.on(
      'GET /staff/disputes/dispute-1',
      apiError(403, 'FORBIDDEN', 'Staff actions need a session verified with a second factor', {
        required_aal: 'aal2',
      }),
    );
    expect(await screen.findByText(/needs a session verified with a second factor/)).toBeInTheDocument();
    expect(api.requestsTo('GET /staff/disputes/dispute-1')).toHaveLength(1);
  });
});
