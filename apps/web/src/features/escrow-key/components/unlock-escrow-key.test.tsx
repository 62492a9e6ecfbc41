import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { AppProvider } from '@/app/provider.js';
import { QueryScope } from '@/app/query-scope.js';
import { authStorageKey, createAuthClient } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { encryptEscrowSeed } from '../lib/escrow-seed.js';
import { UnlockEscrowKey } from './unlock-escrow-key.js';

const testPhrase = `${'abandon '.repeat(11)}about`;
const password = 'a long escrow password';

/** The component alone on a page (as the deal page's escrow panel uses it), Ada signed in. */
function renderUnlock(answer: Parameters<ReturnType<typeof createFakeApiServer>['on']>[1]) {
  const auth = createFakeAuthServer();
  auth.addUser('ada@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('ada@example.com')));
  const api = createFakeApiServer(auth);
  api.on('GET /wallets/escrow-key', answer);
  vi.stubGlobal('fetch', api.server.fetch);
  const authClient = createAuthClient(window.location.origin);
  onTestFinished(() => authClient.stopAutoRefresh());
  const onUnlocked = vi.fn();
  const router = createMemoryRouter(
    [{ path: '/', element: <UnlockEscrowKey onUnlocked={onUnlocked} submitLabel="Approve payout" /> }],
    { initialEntries: ['/'] },
  );
  render(
    <AppProvider authClient={authClient}>
      <QueryScope>
        <RouterProvider router={router} />
      </QueryScope>
    </AppProvider>,
  );
  return { onUnlocked };
}

describe('UnlockEscrowKey', () => {
  it('decrypts the stored seed in the browser with the escrow password', async () => {
    const stored = {
      ...(await encryptEscrowSeed(testPhrase, password, 1_000)),
      ethereum_address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
      created_at: '2026-03-04T10:00:00.000Z',
      updated_at: '2026-03-04T10:00:00.000Z',
    };
    const { onUnlocked } = renderUnlock({ status: 200, body: stored });
    const field = await screen.findByLabelText('Escrow password');
    await userEvent.type(field, 'not the password');
    await userEvent.click(screen.getByRole('button', { name: 'Approve payout' }));
    expect(await screen.findByText('That escrow password is not right.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(onUnlocked).not.toHaveBeenCalled();

    await userEvent.clear(field);
    await userEvent.type(field, password);
    await userEvent.click(screen.getByRole('button', { name: 'Approve payout' }));
    await vi.waitFor(() => expect(onUnlocked).toHaveBeenCalledWith(testPhrase));
    expect(screen.queryByText('That escrow password is not right.')).not.toBeInTheDocument();
  });

  it('sends a user without a key to create one first', async () => {
    const { onUnlocked } = renderUnlock(apiError(404, 'NOT_FOUND', 'No escrow key yet'));
    expect(await screen.findByRole('link', { name: 'Create your escrow key first' })).toHaveAttribute(
      'href',
      '/settings/escrow-key',
    );
    expect(screen.queryByLabelText('Escrow password')).not.toBeInTheDocument();
    expect(onUnlocked).not.toHaveBeenCalled();
  });
});
