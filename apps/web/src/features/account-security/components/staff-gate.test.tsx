import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

const staffUsers = {
  data: [
    {
      id: 'user-mo',
      email: 'mo@example.com',
      username: 'mo',
      roles: ['admin'],
      created_at: '2026-01-01T00:00:00.000Z',
    },
  ],
  has_more: false,
};

function openStaffPage(options: { roles?: string[]; totpCode?: string; aal?: 'aal1' | 'aal2' }) {
  const auth = createFakeAuthServer();
  auth.addUser('mo@example.com', 'correct horse', { roles: options.roles, totpCode: options.totpCode });
  window.localStorage.setItem(
    authStorageKey,
    JSON.stringify(auth.issueSession('mo@example.com', undefined, options.aal)),
  );
  const api = createFakeApiServer(auth);
  api.on('GET /staff/users', { status: 200, body: staffUsers });
  renderApp('/staff/users', api.server);
  return api;
}

describe('StaffGate', () => {
  it('tells a trader that staff pages are for staff, without asking the staff API', async () => {
    const api = openStaffPage({});
    expect(await screen.findByRole('heading', { name: '403 — Staff only' })).toBeInTheDocument();
    expect(api.requestsTo('GET /staff/users')).toHaveLength(0);
  });

  it('asks staff at aal1 for a code, refuses a wrong one, then opens the page', async () => {
    const api = openStaffPage({ roles: ['admin'], totpCode: '135790' });
    expect(await screen.findByRole('heading', { name: "Verify it's you" })).toBeInTheDocument();
    expect(api.requestsTo('GET /staff/users')).toHaveLength(0);

    await userEvent.type(await screen.findByLabelText('Authentication code'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Authentication code'));
    await userEvent.type(screen.getByLabelText('Authentication code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid TOTP code entered')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Authentication code'));
    await userEvent.type(screen.getByLabelText('Authentication code'), '135790');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Staff roles' })).toBeInTheDocument();
    expect(api.requestsTo('GET /staff/users')).not.toHaveLength(0);
  });

  it('sends staff without an authenticator to set one up', async () => {
    openStaffPage({ roles: ['mediator'] });
    expect(
      await screen.findByRole('heading', { name: 'Two-factor authentication required' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up two-factor authentication' })).toHaveAttribute(
      'href',
      '/settings/security',
    );
  });

  it('opens the page at once for staff whose session passed a second factor', async () => {
    openStaffPage({ roles: ['admin'], totpCode: '135790', aal: 'aal2' });
    expect(await screen.findByRole('heading', { name: 'Staff roles' })).toBeInTheDocument();
  });
});
