import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { openDealAsGrace } from '@/testing/deal-fixture.js';
import { renderApp } from '@/testing/render-app.js';

configure({ asyncUtilTimeout: 5000 });

function openDeal(status: string) {
  const { api, deal } = openDealAsGrace({ status });
  api.on('GET /deals/deal-1/cis', { status: 200, body: { buyer: null, seller: null } });
  api.on('GET /cis', { status: 200, body: { data: [] } });
  renderApp('/trading/deals/deal-1', api.server);
  return { api, deal };
}

describe('cancelling a deal from its page', () => {
  it('asks for a reason, then confirmation, and sends the reason', async () => {
    const { api, deal } = openDeal('cis_submitted');
    const heading = await screen.findByRole('heading', { name: 'Cancel this deal' });
    const panel = within(heading.parentElement as HTMLElement);
    await userEvent.click(panel.getByRole('button', { name: 'Cancel deal' }));
    await userEvent.click(panel.getByRole('button', { name: 'Continue' }));
    expect(panel.getByText('Say why you cancel the deal')).toBeInTheDocument();

    await userEvent.type(panel.getByLabelText('Reason for cancelling'), '  The seller went quiet  ');
    await userEvent.click(panel.getByRole('button', { name: 'Continue' }));
    expect(api.requestsTo('POST /deals/deal-1/cancel')).toHaveLength(0);
    api.on('POST /deals/deal-1/cancel', { status: 200, body: { ...deal, status: 'cancelled' } });
    await userEvent.click(panel.getByRole('button', { name: 'Yes, cancel the deal' }));
    await waitFor(() => expect(api.requestsTo('POST /deals/deal-1/cancel')).toHaveLength(1));
    expect(api.requestsTo('POST /deals/deal-1/cancel')[0]?.body).toEqual({ reason: 'The seller went quiet' });
  });

  it('is not offered once the escrow is funded or the deal is closed', async () => {
    openDeal('escrow_funded');
    await screen.findByRole('heading', { name: 'Deal Details' });
    await screen.findByRole('heading', { name: 'Next step' });
    expect(screen.queryByRole('heading', { name: 'Cancel this deal' })).not.toBeInTheDocument();
  });
});
