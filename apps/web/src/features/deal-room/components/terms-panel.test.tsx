import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';
import { escrowOpenNotice } from './terms-panel.js';

configure({ asyncUtilTimeout: 5000 });

const openingTerms = {
  asset_chain: 'BTC',
  asset_symbol: 'BTC',
  asset_amount: '50000000',
  stable_chain: 'ETH',
  stable_symbol: 'USDC',
  stable_amount: '30000000000',
  meeting_required: false,
  travel_location: null,
  funding_deadline_hours: 24,
};
const hash = 'a'.repeat(32) + 'b'.repeat(32);

// Grace (the seller) opens a deal with Ada (the buyer), who proposed versions 1 and 2. `before` adds
// answers the page asks for as it opens.
function openDeal(
  changes: Record<string, unknown> = {},
  before: (api: ReturnType<typeof createFakeApiServer>) => void = () => undefined,
) {
  const auth = createFakeAuthServer();
  const grace = auth.addUser('grace@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('grace@example.com')));
  const api = createFakeApiServer(auth);
  const deal = {
    id: 'deal-1',
    buyer_id: 'user-ada',
    seller_id: grace.id,
    counterparty_id: 'user-ada',
    buyer: { id: 'user-ada', username: 'ada', trading_tier: 'enhanced' },
    seller: { id: grace.id, username: 'GraceHopper', trading_tier: 'institutional' },
    ...openingTerms,
    stable_amount: '30500000000',
    status: 'cis_submitted',
    terms_version: 2,
    terms_proposed_by: 'user-ada',
    accepted_terms_version: null,
    terms_hash: null,
    terms_agreed_at: null,
    addresses: { buyer: null, seller: null },
    created_at: '2026-03-04T10:00:00.000Z',
    updated_at: '2026-03-04T10:00:00.000Z',
    completed_at: null,
    history: [],
    ...changes,
  };
  api.on('GET /deals/deal-1', { status: 200, body: deal });
  api.on('GET /deals/deal-1/terms', {
    status: 200,
    body: {
      versions: [
        { version: 1, proposed_by: 'user-ada', terms: openingTerms, created_at: '2026-03-04T10:00:00.000Z' },
        {
          version: 2,
          proposed_by: 'user-ada',
          terms: { ...openingTerms, stable_amount: '30500000000' },
          created_at: '2026-03-04T11:00:00.000Z',
        },
      ],
      accepted_version: null,
      terms_hash: null,
      bitcoin_network: 'regtest',
    },
  });
  before(api);
  renderApp('/trading/deals/deal-1', api.server);
  return { api, deal };
}

async function termsPanel() {
  const heading = await screen.findByRole('heading', { name: 'Terms' });
  const panel = within(heading.parentElement as HTMLElement);
  await panel.findByRole('heading', { name: 'Current proposal — version 2' });
  return panel;
}

describe('Terms on the deal page', () => {
  it('shows the current proposal and accepts exactly that version', async () => {
    const { api, deal } = openDeal();
    const panel = await termsPanel();
    expect(panel.getByText(/^Proposed by ada/)).toBeInTheDocument();
    const value = (label: string) => panel.getAllByText(label, { selector: 'dt' })[0]!.nextElementSibling;
    expect(value('Asset leg')).toHaveTextContent('0.5 BTC on BTC');
    expect(value('Stablecoin leg')).toHaveTextContent('30500 USDC on ETH');
    expect(value('Funding deadline')).toHaveTextContent('24 hours after agreement');
    expect(value('In-person meeting')).toHaveTextContent('No');
    expect(
      panel.getByText(
        'Both parties’ payout and refund addresses are needed before the terms can be accepted.',
      ),
    ).toBeInTheDocument();

    const agreed = { ...deal, status: 'terms_agreed', accepted_terms_version: 2, terms_hash: hash };
    api.on('POST /deals/deal-1/terms/accept', { status: 200, body: agreed });
    api.on('GET /deals/deal-1', { status: 200, body: agreed });
    await userEvent.click(panel.getByRole('button', { name: 'Accept version 2' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/terms/accept')).toHaveLength(1));
    expect(api.requestsTo('POST /deals/deal-1/terms/accept')[0]!.body).toEqual({ version: 2 });

    expect(await panel.findByText('Terms agreed — version 2')).toBeInTheDocument();
    expect(panel.getByText(hash)).toBeInTheDocument();
    expect(panel.getByRole('button', { name: 'Copy terms hash' })).toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Accept version 2' })).not.toBeInTheDocument();
  });

  it('names whose addresses are missing when the server refuses the acceptance', async () => {
    const { api } = openDeal();
    const panel = await termsPanel();
    api.on(
      'POST /deals/deal-1/terms/accept',
      apiError(422, 'ADDRESSES_REQUIRED', 'Both parties must set payout and refund addresses', {
        missing: ['buyer'],
        invalid: {},
      }),
    );
    await userEvent.click(panel.getByRole('button', { name: 'Accept version 2' }));
    expect(await panel.findByText(/Addresses missing for: ada\./)).toBeInTheDocument();
  });

  it('cannot accept before both CIS are approved', async () => {
    openDeal({ status: 'draft' });
    const panel = await termsPanel();
    expect(panel.getByRole('button', { name: 'Accept version 2' })).toBeDisabled();
    expect(panel.getByText('You can accept once both CIS are approved.')).toBeInTheDocument();
  });

  it('offers no action on terms once the deal is cancelled', async () => {
    openDeal({ status: 'cancelled' });
    const panel = await termsPanel();
    expect(panel.queryByRole('button', { name: 'Accept version 2' })).not.toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Counter-propose' })).not.toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Revise proposal' })).not.toBeInTheDocument();
  });

  // Version 2 agreed with both parties' addresses set (Ada is paid in BTC, Grace in USDC on Ethereum).
  const agreedTerms = {
    status: 'terms_agreed',
    accepted_terms_version: 2,
    terms_hash: hash,
    terms_agreed_at: '2026-03-04T12:00:00.000Z',
    addresses: {
      buyer: {
        payout_address: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
        refund_address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      },
      seller: {
        payout_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        refund_address: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
      },
    },
  };

  it('offers no change of terms or addresses once the escrow is open, and says why', async () => {
    openDeal(agreedTerms, (api) =>
      api.on('GET /deals/deal-1/escrow', {
        status: 200,
        body: {
          escrow_id: '0b3f6a51-8a8b-4f5e-9d0e-3c8a2f1b7c11',
          deal_id: 'deal-1',
          status: 'awaiting_funding',
          legs: [],
          settlement_transactions: null,
        },
      }),
    );
    const panel = await termsPanel();
    expect(await panel.findByText(escrowOpenNotice)).toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Counter-propose' })).not.toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Revise proposal' })).not.toBeInTheDocument();
    const form = within(panel.getByRole('form', { name: 'Your addresses' }));
    expect(form.queryByRole('button', { name: 'Save addresses' })).not.toBeInTheDocument();
    expect(form.getByLabelText('Payout address (ETH) — where you are paid')).toBeDisabled();
    expect(form.getByLabelText('Refund address (BTC) — where your deposit returns')).toBeDisabled();
  });

  it('still lets agreed terms and addresses change while no escrow is open', async () => {
    // The escrow route answers 404: none was opened yet.
    openDeal(agreedTerms);
    const panel = await termsPanel();
    expect(await panel.findByRole('button', { name: 'Counter-propose' })).toBeInTheDocument();
    const form = within(panel.getByRole('form', { name: 'Your addresses' }));
    expect(form.getByRole('button', { name: 'Save addresses' })).toBeInTheDocument();
    expect(panel.queryByText(escrowOpenNotice)).not.toBeInTheDocument();
  });

  it('sends a counter-proposal whole, amounts exact in base units', async () => {
    const { api, deal } = openDeal();
    const panel = await termsPanel();
    await userEvent.click(panel.getByRole('button', { name: 'Counter-propose' }));
    const form = within(panel.getByRole('form', { name: 'Counter-proposal' }));
    const stable = form.getByLabelText('Stable Amount');
    expect(stable).toHaveValue('30500');

    await userEvent.clear(stable);
    await userEvent.type(stable, '1.0000001');
    await userEvent.click(form.getByRole('button', { name: 'Send proposal' }));
    // USDC has 6 decimals: a seventh is not an exact amount.
    expect(await form.findByText('Stable amount must be a positive number.')).toBeInTheDocument();
    expect(api.requestsTo('PUT /deals/deal-1/terms')).toHaveLength(0);

    await userEvent.clear(stable);
    await userEvent.type(stable, '31000.5');
    const hours = form.getByLabelText('Funding deadline (hours, 1–168)');
    await userEvent.clear(hours);
    await userEvent.type(hours, '48');
    await userEvent.click(form.getByLabelText('Require in-person meeting'));
    await userEvent.type(form.getByLabelText('Meeting Location'), 'Zug, CH');
    await userEvent.click(form.getByRole('button', { name: 'Send proposal' }));
    expect(
      await form.findByText('Longitude is a number from -180 to 180 with at most 6 decimals, e.g. 6.1432.'),
    ).toBeInTheDocument();
    expect(api.requestsTo('PUT /deals/deal-1/terms')).toHaveLength(0);
    await userEvent.type(form.getByLabelText('Latitude'), '47.1662');
    await userEvent.type(form.getByLabelText('Longitude'), '8.5155');
    await userEvent.type(form.getByLabelText('First day'), '2026-12-03');
    api.on('PUT /deals/deal-1/terms', { status: 200, body: { ...deal, terms_version: 3 } });
    await userEvent.click(form.getByRole('button', { name: 'Send proposal' }));
    await waitFor(() => expect(api.requestsTo('PUT /deals/deal-1/terms')).toHaveLength(1));
    expect(api.requestsTo('PUT /deals/deal-1/terms')[0]!.body).toEqual({
      asset_chain: 'BTC',
      asset_symbol: 'BTC',
      asset_amount: '50000000',
      stable_chain: 'ETH',
      stable_symbol: 'USDC',
      stable_amount: '31000500000', // 31000.5 × 10^6
      funding_deadline_hours: 48,
      meeting_required: true,
      travel_location: 'Zug, CH',
      meeting: {
        location: 'Zug, CH',
        latitude: '47.1662',
        longitude: '8.5155',
        starts_on: '2026-12-03',
        duration: '1-2',
        travel_paid_by: 'split',
      },
    });
  });

  it('checks addresses on their chains before sending them', async () => {
    const { api, deal } = openDeal();
    const panel = await termsPanel();
    const form = within(panel.getByRole('form', { name: 'Your addresses' }));
    // The seller is paid in USDC on Ethereum and refunded on Bitcoin.
    const payout = form.getByLabelText('Payout address (ETH) — where you are paid');
    const refund = form.getByLabelText('Refund address (BTC) — where your deposit returns');
    await userEvent.type(payout, '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    await userEvent.type(refund, '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
    await userEvent.click(form.getByRole('button', { name: 'Save addresses' }));
    expect(await form.findByText('The address fails its EIP-55 checksum (mixed case).')).toBeInTheDocument();
    expect(form.getByText('Not a Bitcoin regtest address.')).toBeInTheDocument();
    expect(api.requestsTo('PUT /deals/deal-1/addresses')).toHaveLength(0);

    await userEvent.clear(payout);
    await userEvent.type(payout, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    await userEvent.clear(refund);
    await userEvent.type(refund, 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080');
    api.on('PUT /deals/deal-1/addresses', { status: 200, body: deal });
    await userEvent.click(form.getByRole('button', { name: 'Save addresses' }));
    await waitFor(() => expect(api.requestsTo('PUT /deals/deal-1/addresses')).toHaveLength(1));
    expect(api.requestsTo('PUT /deals/deal-1/addresses')[0]!.body).toEqual({
      payout_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      refund_address: 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080',
    });
    expect(panel.getByText('ada has not set addresses yet.')).toBeInTheDocument();
  });
});
