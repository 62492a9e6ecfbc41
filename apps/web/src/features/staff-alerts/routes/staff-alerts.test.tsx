import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';
import type { StaffAlert } from '../api/get-staff-alerts.js';

const reconciliation: StaffAlert = {
  id: 'alert-books',
  kind: 'escrow_reconciliation',
  subject: 'escrow-1:stable',
  message: "The stable leg's books do not balance: balance differs from ledger",
  details: {
    escrow_id: 'escrow-1',
    leg: 'stable',
    problem: 'balance_differs_from_ledger',
    deposits: '30000000000',
    payouts: '29997000000',
    fees: '3000000',
    refunds: '0',
    sweeps: '0',
    expected_held: '0',
    held: '1',
  },
  created_at: '2026-03-06T09:30:00.000Z',
  resolved_at: null,
  resolved_by: null,
};
const notPayable: StaffAlert = {
  id: 'alert-decision',
  kind: 'instruction_not_payable',
  subject: 'instruction-1',
  message: 'A mediator decision cannot be paid out: the split exceeds the deposit',
  details: { deal_id: 'deal-7', error: 'VALIDATION_FAILED' },
  created_at: '2026-03-06T10:15:00.000Z',
  resolved_at: null,
  resolved_by: null,
};

const heldDeposit: StaffAlert = {
  id: 'alert-held',
  kind: 'wrong_token_deposit',
  subject: '0xabc:3',
  message:
    "A deposit of another token (USDC) reached the asset leg's escrow from 0x1111, an address of neither party; it is held until staff return it to the party who sent it",
  details: {
    escrow_id: 'escrow-2',
    leg: 'asset',
    token: '0x5555',
    amount: '5000000',
    transaction_hash: '0xabc',
    log_index: 3,
    from: '0x1111',
    sender: null,
  },
  created_at: '2026-03-06T10:45:00.000Z',
  resolved_at: null,
  resolved_by: null,
};

const failedReturn: StaffAlert = {
  id: 'alert-failed',
  kind: 'foreign_asset_return_failed',
  subject: '0xfed:0',
  message:
    'The return of a wrong-token deposit reverted on-chain; the deposit is still in the escrow: send it again to the party who sent it',
  details: {
    ...heldDeposit.details,
    transaction_hash: '0xfed',
    log_index: 0,
    from: '0x2222',
    sender: 'seller',
    return_transaction: '0x999',
    error: 'reverted on-chain',
  },
  created_at: '2026-03-06T10:50:00.000Z',
  resolved_at: null,
  resolved_by: null,
};
// Its return is on its way (the engine named the sender): nothing for staff to send.
const returning: StaffAlert = {
  ...failedReturn,
  id: 'alert-returning',
  kind: 'wrong_token_deposit',
  subject: '0xfee:0',
  message:
    "A deposit of another token (USDC) reached the asset leg's escrow from the seller; it is being sent back to the seller's address in the terms",
  details: { ...heldDeposit.details, transaction_hash: '0xfee', log_index: 0, sender: 'seller' },
};

/** Opens /staff/alerts through the whole app (staff gate, header) as staff with `roles` at aal2. */
function openAlerts(roles: string[], alerts: StaffAlert[]) {
  const auth = createFakeAuthServer();
  auth.addUser('ops@example.com', 'correct horse', { roles, totpCode: '135790' });
  window.localStorage.setItem(
    authStorageKey,
    JSON.stringify(auth.issueSession('ops@example.com', undefined, 'aal2')),
  );
  const api = createFakeApiServer(auth);
  let open = alerts;
  api.on('GET /staff/alerts', () => ({ status: 200, body: { data: open } }));
  for (const alert of alerts) {
    api.on(`POST /staff/alerts/${alert.id}/resolve`, () => {
      if (!open.includes(alert)) return apiError(404, 'NOT_FOUND', 'No open alert with this id');
      open = open.filter((kept) => kept !== alert);
      return { status: 200, body: { ...alert, resolved_at: '2026-03-06T11:00:00.000Z' } };
    });
  }
  api.on('POST /staff/alerts/alert-failed/return-foreign-deposit', () =>
    apiError(
      409,
      'CONFLICT',
      'The chain’s node refused this return, so nothing was sent: execution reverted',
    ),
  );
  api.on('POST /staff/alerts/alert-held/return-foreign-deposit', (request) => {
    open = open.filter((kept) => kept !== heldDeposit);
    const party = (request.body as { party: string }).party;
    return {
      status: 200,
      body: {
        alert: { ...heldDeposit, resolved_at: '2026-03-06T11:00:00.000Z' },
        to: party === 'buyer' ? '0xB0B' : '0x5E11',
        return_transaction: '0xdef',
      },
    };
  });
  renderApp('/staff/alerts', api.server);
  return {
    api,
    // Someone else resolves the alert meanwhile: the list this page holds is now stale.
    resolveElsewhere: (id: string) => {
      open = open.filter((kept) => kept.id !== id);
    },
  };
}

function details(item: HTMLElement): Record<string, string | null | undefined> {
  const terms = within(item).getAllByRole('term');
  return Object.fromEntries(terms.map((term) => [term.textContent, term.nextElementSibling?.textContent]));
}

describe('/staff/alerts', () => {
  it('lists open alerts newest first with the kind in words, the message, the subject and base-unit amounts', async () => {
    openAlerts(['compliance'], [notPayable, reconciliation]);
    const list = await screen.findByRole('list', { name: 'Open alerts' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Mediator decision cannot be paid out',
      'Escrow books do not balance',
    ]);

    const books = items[1]!;
    expect(within(books).getByText('6 Mar 2026, 09:30 UTC')).toBeInTheDocument();
    expect(
      within(books).getByText("The stable leg's books do not balance: balance differs from ledger"),
    ).toBeInTheDocument();
    expect(within(books).getByText('Subject: escrow-1:stable')).toBeInTheDocument();
    expect(details(books)).toEqual({
      'escrow id': 'escrow-1',
      leg: 'stable',
      problem: 'balance_differs_from_ledger',
      deposits: '30000000000 base units',
      payouts: '29997000000 base units',
      fees: '3000000 base units',
      refunds: '0 base units',
      sweeps: '0 base units',
      'expected held': '0 base units',
      held: '1 base units',
    });
    // Only the escrow is named: the link searches the staff deal view by escrow id.
    expect(within(books).getByRole('link', { name: 'Open the deal' })).toHaveAttribute(
      'href',
      '/staff/deals?q=escrow-1',
    );

    const decision = items[0]!;
    expect(details(decision)).toEqual({ 'deal id': 'deal-7', error: 'VALIDATION_FAILED' });
    expect(within(decision).getByRole('link', { name: 'Open the deal' })).toHaveAttribute(
      'href',
      '/staff/deals/deal-7',
    );
  });

  it('lets compliance mark an alert resolved; it leaves the list', async () => {
    const { api } = openAlerts(['compliance'], [notPayable, reconciliation]);
    const list = await screen.findByRole('list', { name: 'Open alerts' });
    const books = within(list).getByRole('listitem', { name: 'Escrow books do not balance' });
    await userEvent.click(within(books).getByRole('button', { name: 'Mark resolved' }));
    expect(await screen.findByText('Alert resolved')).toBeInTheDocument();
    expect(api.requestsTo('POST /staff/alerts/alert-books/resolve')).toHaveLength(1);
    await expect
      .poll(() => within(list).queryByRole('listitem', { name: 'Escrow books do not balance' }))
      .toBeNull();
    expect(
      within(list).getByRole('listitem', { name: 'Mediator decision cannot be paid out' }),
    ).toBeInTheDocument();
  });

  it('lets an admin resolve the last alert, then says there are none', async () => {
    openAlerts(['admin'], [reconciliation]);
    await userEvent.click(await screen.findByRole('button', { name: 'Mark resolved' }));
    expect(await screen.findByText('No open alerts.')).toBeInTheDocument();
  });

  it('says why when the alert was already resolved elsewhere, and drops it from the list', async () => {
    const { resolveElsewhere } = openAlerts(['admin'], [reconciliation]);
    const button = await screen.findByRole('button', { name: 'Mark resolved' });
    resolveElsewhere(reconciliation.id);
    await userEvent.click(button);
    expect(await screen.findByText('Not resolved')).toBeInTheDocument();
    expect(screen.getByText('No open alert with this id')).toBeInTheDocument();
    expect(await screen.findByText('No open alerts.')).toBeInTheDocument();
  });

  it('shows mediators the alerts without "Mark resolved", and links the page from their account menu', async () => {
    const { api } = openAlerts(['mediator'], [reconciliation]);
    const list = await screen.findByRole('list', { name: 'Open alerts' });
    expect(within(list).getByRole('heading', { name: 'Escrow books do not balance' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark resolved' })).not.toBeInTheDocument();
    expect(screen.getByText(/Compliance officers and admins mark alerts resolved/)).toBeInTheDocument();
    expect(api.requestsTo('POST /staff/alerts/alert-books/resolve')).toHaveLength(0);
    const menu = screen.getByRole('navigation', { name: 'Account', hidden: true });
    expect(within(menu).getByRole('link', { name: 'Escrow alerts', hidden: true })).toHaveAttribute(
      'href',
      '/staff/alerts',
    );
    expect(within(menu).queryByRole('link', { name: 'Staff roles', hidden: true })).not.toBeInTheDocument();
  });

  it('lets compliance send a held wrong-token deposit back to the party it names, after confirming', async () => {
    const { api } = openAlerts(['compliance'], [heldDeposit, reconciliation]);
    const list = await screen.findByRole('list', { name: 'Open alerts' });
    const held = within(list).getByRole('listitem', { name: 'Deposit of the wrong token' });
    // Only held deposits offer it.
    const books = within(list).getByRole('listitem', { name: 'Escrow books do not balance' });
    expect(within(books).queryByRole('button', { name: 'Return to the buyer' })).not.toBeInTheDocument();

    await userEvent.click(within(held).getByRole('button', { name: 'Return to the seller' }));
    const confirm = within(held).getByRole('group', { name: 'Confirm the return' });
    expect(confirm).toHaveTextContent('Send this deposit to the seller’s address in the leg’s terms?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(held).getByRole('button', { name: 'Return to the buyer' }));
    expect(api.requestsTo('POST /staff/alerts/alert-held/return-foreign-deposit')).toHaveLength(0);
    await userEvent.click(within(held).getByRole('button', { name: 'Confirm return to the buyer' }));

    expect(await screen.findByText('Deposit on its way back to the buyer')).toBeInTheDocument();
    expect(screen.getByText('To 0xB0B, transaction 0xdef')).toBeInTheDocument();
    const requests = api.requestsTo('POST /staff/alerts/alert-held/return-foreign-deposit');
    expect(requests.map((request) => request.body)).toEqual([{ party: 'buyer' }]);
    await expect
      .poll(() => within(list).queryByRole('listitem', { name: 'Deposit of the wrong token' }))
      .toBeNull();
  });

  it('offers the return again on a failed return, not on one on its way, and says why the chain refused it', async () => {
    const { api } = openAlerts(['admin'], [failedReturn, returning]);
    const list = await screen.findByRole('list', { name: 'Open alerts' });
    const onItsWay = within(list).getByRole('listitem', { name: 'Deposit of the wrong token' });
    expect(within(onItsWay).queryByRole('button', { name: 'Return to the seller' })).not.toBeInTheDocument();
    const failed = within(list).getByRole('listitem', { name: 'Return of a wrong-token deposit failed' });
    expect(failed).toHaveTextContent(
      'Its return did not arrive; the deposit is still in the escrow. Send it again:',
    );
    await userEvent.click(within(failed).getByRole('button', { name: 'Return to the seller' }));
    await userEvent.click(within(failed).getByRole('button', { name: 'Confirm return to the seller' }));
    expect(await screen.findByText('Not returned')).toBeInTheDocument();
    expect(
      screen.getByText('The chain’s node refused this return, so nothing was sent: execution reverted'),
    ).toBeInTheDocument();
    expect(api.requestsTo('POST /staff/alerts/alert-failed/return-foreign-deposit')).toHaveLength(1);
    // Still open: the list keeps it.
    expect(
      within(list).getByRole('listitem', { name: 'Return of a wrong-token deposit failed' }),
    ).toBeInTheDocument();
  });

  it('offers mediators no return of a held deposit', async () => {
    openAlerts(['mediator'], [heldDeposit]);
    await screen.findByRole('list', { name: 'Open alerts' });
    expect(screen.queryByRole('button', { name: 'Return to the buyer' })).not.toBeInTheDocument();
  });

  it('says so when nothing is open', async () => {
    openAlerts(['mediator'], []);
    expect(await screen.findByText('No open alerts.')).toBeInTheDocument();
  });
});
