import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeAuthServer, fakeEnrolledTotpCode } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

function openSecurity(options: { totpCode?: string } = {}) {
  const auth = createFakeAuthServer();
  auth.addUser('ada@example.com', 'correct horse', { totpCode: options.totpCode });
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('ada@example.com')));
  renderApp('/settings/security', auth);
  return auth;
}

describe('/settings/security', () => {
  it('sets up an authenticator: QR code and secret, then a code turns it on', async () => {
    const auth = openSecurity();
    await userEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    );
    expect(screen.getByText('FAKESECRETBASE32')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Authentication code'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect(await screen.findByText('Invalid TOTP code entered')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Authentication code'));
    await userEvent.type(screen.getByLabelText('Authentication code'), fakeEnrolledTotpCode);
    await userEvent.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect(await screen.findByText('Two-factor authentication is on')).toBeInTheDocument();
    expect(await screen.findByText('Authenticator app')).toBeInTheDocument();
    expect(auth.requestsTo('POST /factors')).toHaveLength(1);
  });

  it('removes a verified authenticator only after a current code', async () => {
    const auth = openSecurity({ totpCode: '975310' });
    expect(await screen.findByText('Phone')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(
      screen.getByText('Enter a current code from this authenticator to remove it.'),
    ).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Authentication code'), '975310');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and remove' }));
    expect(await screen.findByText('The authenticator was removed')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Set up an authenticator app' })).toBeInTheDocument();
    const removals = auth.requests.filter((request) => request.method === 'DELETE');
    expect(removals).toHaveLength(1);
  });
});
