import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppProvider } from '@/app/provider.js';
import { QueryScope } from '@/app/query-scope.js';
import { authStorageKey, createAuthClient } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import {
  cancelsDealNotice,
  DecisionForm,
  decideByNotice,
  refundOnlyNotice,
  travelNotice,
  windowClosedNotice,
} from './decision-form.js';

// 0.5 BTC (50 000 000 sat) against 30 000 USDC (30 000 000 000 base units).
const legs = {
  asset: { amount: '50000000', symbol: 'BTC' },
  stable: { amount: '30000000000', symbol: 'USDC' },
};
const rationale = 'The chat log shows the seller delivered half of what was agreed.';

type ShortLeg = { leg: 'asset' | 'stable'; required: string; received: string };
type LegTravel = { leg: 'asset' | 'stable'; paid: string; charged_to_receiver: string; held: string };

function renderForm({
  escrowOpened = true,
  shortLegs = [] as ShortLeg[],
  decideBy = null as string | null,
  travel = [] as LegTravel[],
} = {}) {
  const auth = createFakeAuthServer();
  auth.addUser('mediator@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('mediator@example.com')));
  const api = createFakeApiServer(auth);
  vi.stubGlobal('fetch', api.server.fetch);
  const authClient = createAuthClient(window.location.origin);
  onTestFinished(() => authClient.stopAutoRefresh());
  render(
    <AppProvider authClient={authClient}>
      <QueryScope>
        <DecisionForm
          disputeId="dispute-1"
          legs={legs}
          escrowOpened={escrowOpened}
          shortLegs={shortLegs}
          decideBy={decideBy}
          travel={travel}
        />
      </QueryScope>
    </AppProvider>,
  );
  return api;
}

async function typeSplit(values: { asset: [string, string]; stable: [string, string] }) {
  await userEvent.click(screen.getByRole('radio', { name: /Split/ }));
  const asset = within(screen.getByRole('group', { name: /Asset leg/ }));
  await userEvent.type(asset.getByLabelText('BTC to the buyer'), values.asset[0]);
  await userEvent.type(asset.getByLabelText('BTC to the seller'), values.asset[1]);
  const stable = within(screen.getByRole('group', { name: /Stable leg/ }));
  await userEvent.type(stable.getByLabelText('USDC to the buyer'), values.stable[0]);
  await userEvent.type(stable.getByLabelText('USDC to the seller'), values.stable[1]);
  await userEvent.type(screen.getByLabelText(/Rationale/), rationale);
}

describe('DecisionForm', () => {
  it('sends a split converted exactly to base units once confirmed', async () => {
    const api = renderForm();
    api.on('POST /staff/disputes/dispute-1/decision', (request) => ({
      status: 200,
      body: { id: 'dispute-1', status: 'decided', decision: 'split', amounts: request.body },
    }));
    // asset: 0.12345678 + 0.37654322 = 0.5 BTC; stable: 29999.999999 + 0.000001 = 30000 USDC
    await typeSplit({ asset: ['0.12345678', '0.37654322'], stable: ['29999.999999', '0.000001'] });
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));

    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Asset leg: 0.12345678 BTC to the buyer, 0.37654322 BTC to the seller');
    expect(confirm).toHaveTextContent(
      'Stable leg: 29999.999999 USDC to the buyer, 0.000001 USDC to the seller',
    );
    expect(api.requestsTo('POST /staff/disputes/dispute-1/decision')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Record the decision' }));

    expect(await screen.findByText('Decision recorded')).toBeInTheDocument();
    const [sent] = api.requestsTo('POST /staff/disputes/dispute-1/decision');
    expect(sent!.body).toEqual({
      decision: 'split',
      split: {
        asset: { buyer: '12345678', seller: '37654322' },
        stable: { buyer: '29999999999', seller: '1' },
      },
      rationale,
    });
  });

  it('refuses a split whose amounts do not add up to the leg, and sends nothing', async () => {
    const api = renderForm();
    // asset: 0.3 + 0.3 = 0.6 BTC, not 0.5; stable adds up.
    await typeSplit({ asset: ['0.3', '0.3'], stable: ['15000', '15000'] });
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));

    expect(
      await screen.findByText('Buyer and seller must add up to 0.5 BTC; they add up to 0.6 BTC'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    // More decimals than USDC has is not an exact amount either.
    await userEvent.clear(screen.getByLabelText('USDC to the buyer'));
    await userEvent.type(screen.getByLabelText('USDC to the buyer'), '14999.9999999');
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));
    expect(
      await screen.findByText('Enter both amounts in USDC, e.g. 0.5 (0 for nothing)'),
    ).toBeInTheDocument();
    expect(api.requestsTo('POST /staff/disputes/dispute-1/decision')).toHaveLength(0);
  });

  it('sends a release with its rationale, and says why when the server refuses a mediator without a second factor', async () => {
    const api = renderForm();
    api.on(
      'POST /staff/disputes/dispute-1/decision',
      apiError(403, 'FORBIDDEN', 'Staff actions need a session verified with a second factor', {
        required_aal: 'aal2',
      }),
    );
    await userEvent.type(screen.getByLabelText(/Rationale/), 'Too short');
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));
    expect(await screen.findByText('Explain the decision in at least 30 characters')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/Rationale/), ` — ${rationale}`);
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Record the decision' }));
    expect(
      await screen.findByText(/The dispute console needs a session verified with a second factor/),
    ).toBeInTheDocument();
    const [sent] = api.requestsTo('POST /staff/disputes/dispute-1/decision');
    expect(sent!.body).toEqual({ decision: 'release', rationale: `Too short — ${rationale}` });
  });

  it('says up front and on confirming that a decision on a deal whose escrow never opened cancels it', async () => {
    const api = renderForm({ escrowOpened: false });
    api.on('POST /staff/disputes/dispute-1/decision', () => ({
      status: 200,
      body: {
        id: 'dispute-1',
        status: 'decided',
        decision: 'refund',
        effect: 'deal_cancelled',
        amounts: null,
      },
    }));
    expect(screen.getByRole('note')).toHaveTextContent(cancelsDealNotice);
    await userEvent.click(screen.getByRole('radio', { name: /Refund both/ }));
    await userEvent.type(screen.getByLabelText(/Rationale/), rationale);
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));

    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent(
      'Record this decision? It cancels the deal, and cannot be changed afterwards.',
    );
    expect(confirm).toHaveTextContent(cancelsDealNotice);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Record the decision' }));
    expect(
      await screen.findByText('The deal is cancelled; no money moves, since none was deposited.'),
    ).toBeInTheDocument();
    const [sent] = api.requestsTo('POST /staff/disputes/dispute-1/decision');
    expect(sent!.body).toEqual({ decision: 'refund', rationale });
  });

  it('says nothing of cancelling when the escrow is open', () => {
    renderForm();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    expect(screen.queryByText(cancelsDealNotice)).not.toBeInTheDocument();
  });

  it('offers only a refund on an escrow with a short leg, and says why with what it holds', async () => {
    // The seller deposited the 0.5 BTC; the buyer only 10 000 of the 30 000 USDC.
    const api = renderForm({
      shortLegs: [{ leg: 'stable', required: '30000000000', received: '10000000000' }],
    });
    api.on('POST /staff/disputes/dispute-1/decision', () => ({
      status: 200,
      body: { id: 'dispute-1', status: 'decided', decision: 'refund', effect: 'escrow_payout' },
    }));
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent(refundOnlyNotice);
    expect(within(note).getByRole('list', { name: 'Short legs' })).toHaveTextContent(
      'Stable leg: 10000 USDC of 30000 USDC received',
    );
    expect(screen.getByRole('radio', { name: /Release per terms/ })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Split/ })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Refund both/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Refund both/ })).toBeEnabled();

    await userEvent.type(screen.getByLabelText(/Rationale/), rationale);
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Record the decision' }));
    expect(await screen.findByText('Decision recorded')).toBeInTheDocument();
    const [sent] = api.requestsTo('POST /staff/disputes/dispute-1/decision');
    expect(sent!.body).toEqual({ decision: 'refund', rationale });
  });

  it('says what travel took out of a leg, and what that leaves for a split or a refund', () => {
    // 250 USDC of hotel paid out of the stable leg of 30 000, all of it the seller's share.
    const travel = {
      leg: 'stable' as const,
      paid: '250000000',
      charged_to_receiver: '250000000',
      held: '29750000000',
    };
    renderForm({ travel: [travel] });
    expect(screen.getByRole('note')).toHaveTextContent(travelNotice(travel, 'USDC'));
    expect(travelNotice(travel, 'USDC')).toBe(
      'Travel of 250 USDC was paid out of the stable leg (the seller’s share by the terms: 250 USDC). It now holds 29750 USDC: a split cannot give the seller more of it, and a refund returns that to the buyer, who then bears all of the travel.',
    );
  });

  it('says until when release and split may be decided, while they may', () => {
    const decideBy = new Date(Date.now() + 3 * 3_600_000).toISOString();
    renderForm({ decideBy });
    expect(screen.getByRole('note')).toHaveTextContent(decideByNotice(decideBy));
    expect(decideByNotice('2026-03-09T23:00:00.000Z')).toBe(
      'Release and split must be decided by 2026-03-09 23:00 UTC, an hour before the escrow’s on-chain deadline; after that only a refund can be decided.',
    );
    expect(screen.getByRole('radio', { name: /Release per terms/ })).toBeEnabled();
    expect(screen.getByRole('radio', { name: /Split/ })).toBeEnabled();
  });

  it('offers only a refund once the time to pay the legs against each other has passed', async () => {
    const decideBy = new Date(Date.now() - 60_000).toISOString();
    const api = renderForm({ decideBy });
    api.on('POST /staff/disputes/dispute-1/decision', () => ({
      status: 200,
      body: { id: 'dispute-1', status: 'decided', decision: 'refund', effect: 'escrow_payout' },
    }));
    expect(screen.getByRole('note')).toHaveTextContent(windowClosedNotice(decideBy));
    expect(screen.getByRole('radio', { name: /Release per terms/ })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Split/ })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Refund both/ })).toBeChecked();
    await userEvent.type(screen.getByLabelText(/Rationale/), rationale);
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Record the decision' }));
    expect(await screen.findByText('Decision recorded')).toBeInTheDocument();
    const [sent] = api.requestsTo('POST /staff/disputes/dispute-1/decision');
    expect(sent!.body).toEqual({ decision: 'refund', rationale });
  });

  it('shows the server’s reason when it refuses a release on an escrow found short', async () => {
    // The case was read while both legs were funded; a deposit was reorged out before the decision.
    const api = renderForm();
    const message =
      'A release needs both legs of the escrow fully funded, and the stable leg is not: only a refund can be decided, returning every deposit to the party that made it';
    api.on(
      'POST /staff/disputes/dispute-1/decision',
      apiError(422, 'INSUFFICIENT_BALANCE', message, {
        reason: 'escrow_not_funded',
        short_legs: [{ leg: 'stable', required: '30000000000', received: '0' }],
      }),
    );
    await userEvent.type(screen.getByLabelText(/Rationale/), rationale);
    await userEvent.click(screen.getByRole('button', { name: 'Review the decision' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Record the decision' }));
    expect(await screen.findByText('The decision was not recorded')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
  });
});
