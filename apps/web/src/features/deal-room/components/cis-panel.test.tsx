import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { renderApp } from '@/testing/render-app.js';

configure({ asyncUtilTimeout: 5000 });

const adaSheet = {
  id: 'cis-ada',
  legal_name: 'Ada Lovelace',
  entity_type: 'individual',
  jurisdiction: 'GB',
  source_of_funds: 'Royalties from the Analytical Engine',
  assets: ['BTC', 'USDC'],
  size_min_usd: 100_000,
  size_max_usd: 1_000_000,
  preferred_chains: ['BTC', 'ETH'],
  settlement_window_hours: 72,
  has_pdf: true,
  created_at: '2026-03-01T10:00:00.000Z',
};

const graceSheet = {
  ...adaSheet,
  id: 'cis-grace',
  legal_name: 'Hopper Capital LLC',
  entity_type: 'company',
  has_pdf: false,
};

const entry = (cis: object, status = 'pending', review_comment: string | null = null) => ({
  cis,
  status,
  review_comment,
  reviewed_at: status === 'pending' ? null : '2026-03-05T10:00:00.000Z',
  attached_at: '2026-03-04T11:00:00.000Z',
});

// Grace (the seller) opens a deal with Ada; the test says what the CIS exchange and her sheets are.
function openDeal({
  status = 'draft',
  exchange,
  sheets = [graceSheet],
}: {
  status?: string;
  exchange: { buyer: unknown; seller: unknown };
  sheets?: unknown[];
}) {
  const { api } = openDealAsGrace({ status });
  api.on('GET /deals/deal-1/cis', { status: 200, body: exchange });
  api.on('GET /cis', { status: 200, body: { data: sheets } });
  renderApp('/trading/deals/deal-1', api.server);
  return api;
}

async function cisPanel() {
  const heading = await screen.findByRole('heading', { name: 'CIS exchange' });
  return within(heading.parentElement as HTMLElement);
}

describe('CIS exchange on the deal page', () => {
  it("shows the counterparty's whole CIS with its PDF, and sends an approval", async () => {
    const api = openDeal({ exchange: { buyer: entry(adaSheet), seller: entry(graceSheet) } });
    const panel = await cisPanel();
    const theirs = within(await panel.findByRole('region', { name: "ada's CIS" }));
    const value = (label: string) => theirs.getByText(label, { selector: 'dt' }).nextSibling;
    expect(value('Legal name')).toHaveTextContent('Ada Lovelace');
    expect(value('Entity type')).toHaveTextContent('Individual');
    expect(value('Jurisdiction')).toHaveTextContent('United Kingdom (GB)');
    expect(value('Source of funds')).toHaveTextContent('Royalties from the Analytical Engine');
    expect(value('Assets')).toHaveTextContent('BTC, USDC');
    expect(value('Usual trade size')).toHaveTextContent('$100,000 – $1,000,000');
    expect(value('Preferred chains')).toHaveTextContent('BTC, ETH');
    expect(value('Settlement window')).toHaveTextContent('Within 72 hours');
    expect(theirs.getByRole('button', { name: 'Download signed PDF' })).toBeInTheDocument();
    expect(theirs.getByText('Awaiting review')).toBeInTheDocument();

    const mine = within(panel.getByRole('region', { name: 'Your CIS' }));
    expect(mine.getByText('Hopper Capital LLC')).toBeInTheDocument();

    api.on('POST /deals/deal-1/cis/approve', {
      status: 200,
      body: { buyer: entry(adaSheet, 'approved'), seller: entry(graceSheet) },
    });
    const dealReads = api.requestsTo('GET /deals/deal-1').length;
    await userEvent.click(theirs.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/cis/approve')).toHaveLength(1));
    // The approval names the sheet shown, so it cannot fall on one swapped in meanwhile.
    expect(api.requestsTo('POST /deals/deal-1/cis/approve')[0]?.body).toEqual({ cis_id: 'cis-ada' });
    // The approval may have moved the deal: the deal and its CIS exchange are read again.
    await waitFor(() => expect(api.requestsTo('GET /deals/deal-1').length).toBeGreaterThan(dealReads));
  });

  it('says so and shows the sheet attached now when the counterparty swapped the one shown', async () => {
    const api = openDeal({ exchange: { buyer: entry(adaSheet), seller: entry(graceSheet) } });
    const panel = await cisPanel();
    const theirs = within(await panel.findByRole('region', { name: "ada's CIS" }));
    expect(theirs.getByText('Ada Lovelace')).toBeInTheDocument();
    const swapped = { ...adaSheet, id: 'cis-ada-2', legal_name: 'Ada Lovelace Trading Ltd' };
    api.on('POST /deals/deal-1/cis/approve', {
      status: 409,
      body: {
        error: {
          code: 'CONFLICT',
          message:
            'The other party has attached another CIS since you opened it: review the sheet attached now',
          details: { reason: 'cis_changed' },
          timestamp: '2026-03-05T10:00:00.000Z',
        },
      },
    });
    api.on('GET /deals/deal-1/cis', {
      status: 200,
      body: { buyer: entry(swapped), seller: entry(graceSheet) },
    });
    await userEvent.click(theirs.getByRole('button', { name: 'Approve' }));
    expect(
      await screen.findByText(
        'The other party has attached another CIS since you opened it: review the sheet attached now',
      ),
    ).toBeInTheDocument();
    expect(await theirs.findByText('Ada Lovelace Trading Ltd')).toBeInTheDocument();
    expect(api.requestsTo('POST /deals/deal-1/cis/approve')[0]?.body).toEqual({ cis_id: 'cis-ada' });
  });

  it('needs a comment to reject, and sends it', async () => {
    const api = openDeal({ exchange: { buyer: entry(adaSheet), seller: entry(graceSheet) } });
    api.on('POST /deals/deal-1/cis/reject', {
      status: 200,
      body: { buyer: entry(adaSheet, 'rejected', 'Jurisdiction is incomplete'), seller: entry(graceSheet) },
    });
    const panel = await cisPanel();
    const theirs = within(await panel.findByRole('region', { name: "ada's CIS" }));
    await userEvent.click(theirs.getByRole('button', { name: 'Reject' }));
    expect(await theirs.findByText('Say what is wrong with the sheet')).toBeInTheDocument();
    expect(api.requestsTo('POST /deals/deal-1/cis/reject')).toHaveLength(0);

    await userEvent.type(theirs.getByLabelText('Reason for rejecting'), 'Jurisdiction is incomplete');
    await userEvent.click(theirs.getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/cis/reject')).toHaveLength(1));
    expect(api.requestsTo('POST /deals/deal-1/cis/reject')[0]?.body).toEqual({
      cis_id: 'cis-ada',
      comment: 'Jurisdiction is incomplete',
    });
  });

  it('attaches one of your sheets, then shows the counterparty’s', async () => {
    const api = openDeal({ exchange: { buyer: null, seller: null } });
    api.on('POST /deals/deal-1/cis', {
      status: 200,
      body: { buyer: entry(adaSheet), seller: entry(graceSheet) },
    });
    const panel = await cisPanel();
    // Until the viewer attaches its own, the server shows nothing of the counterparty's.
    expect(await panel.findByText("ada's CIS is shown here once you attach yours.")).toBeInTheDocument();
    const mine = within(panel.getByRole('region', { name: 'Your CIS' }));
    expect(await mine.findByLabelText('Attach one of your sheets')).toHaveValue('cis-grace');
    api.on('GET /deals/deal-1/cis', {
      status: 200,
      body: { buyer: entry(adaSheet), seller: entry(graceSheet) },
    });
    await userEvent.click(mine.getByRole('button', { name: 'Attach CIS' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/cis')).toHaveLength(1));
    expect(api.requestsTo('POST /deals/deal-1/cis')[0]?.body).toEqual({ cis_id: 'cis-grace' });
    const theirs = within(await panel.findByRole('region', { name: "ada's CIS" }));
    expect(await theirs.findByText('Ada Lovelace')).toBeInTheDocument();
  });

  it('says the counterparty has attached nothing yet once the viewer has', async () => {
    openDeal({ exchange: { buyer: null, seller: entry(graceSheet) } });
    const panel = await cisPanel();
    expect(await panel.findByText('ada has not attached a CIS yet.')).toBeInTheDocument();
  });

  it('links to the CIS Documents tab when you have no sheet', async () => {
    openDeal({ exchange: { buyer: null, seller: null }, sheets: [] });
    const panel = await cisPanel();
    const link = await panel.findByRole('link', { name: 'Upload one in the CIS Documents tab of Trading' });
    expect(link).toHaveAttribute('href', '/trading');
  });

  it('says both CIS are approved and offers no more actions once the exchange is done', async () => {
    openDeal({
      status: 'cis_submitted',
      exchange: { buyer: entry(adaSheet, 'approved'), seller: entry(graceSheet, 'approved') },
    });
    const panel = await cisPanel();
    expect(await panel.findByText('Both CIS approved')).toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
    expect(panel.queryByRole('button', { name: /Attach CIS|Replace CIS/ })).not.toBeInTheDocument();
    expect(panel.getAllByText('Approved')).toHaveLength(2);
  });
});
