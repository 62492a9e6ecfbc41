import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeAuthServer, fakeEnrolledTotpCode } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

function openSecurity(options: { totpCode?: string; google?: string } = {}) {
  const auth = createFakeAuthServer();
  auth.addUser('ada@example.com', 'correct horse', { totpCode: options.totpCode, google: options.google });
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

  it('asks for the password when the sign-in is too old to add a factor, then sets it up', async () => {
    const auth = openSecurity();
    auth.replyOnce('POST /factors', 401, {
      code: 'reauthentication_needed',
      error_code: 'reauthentication_needed',
      msg: 'Confirm your password to continue: this action needs a recent sign-in',
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm It’s You' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong horse');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That password is not correct.');
    await userEvent.clear(within(dialog).getByLabelText('Password'));
    await userEvent.type(within(dialog).getByLabelText('Password'), 'correct horse');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('FAKESECRETBASE32')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(auth.requestsTo('POST /reauthenticate').map((request) => request.body)).toEqual([
      { password: 'wrong horse' },
      { password: 'correct horse' },
    ]);
    expect(auth.requestsTo('POST /factors')).toHaveLength(2);
  });

  it('lists the sign-in methods and unlinks Google, after the password when the sign-in is too old', async () => {
    const auth = createFakeAuthServer();
    const ada = auth.addUser('ada@example.com', 'correct horse', { google: 'ada.lovelace@gmail.example' });
    window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('ada@example.com')));
    renderApp('/settings/security', auth);
    const methods = await screen.findByRole('region', { name: 'Sign-in methods' });
    expect(await within(methods).findByText('Google')).toBeInTheDocument();
    expect(within(methods).getByText('E-mail and password')).toBeInTheDocument();
    expect(within(methods).getByText('ada.lovelace@gmail.example')).toBeInTheDocument();
    // Only Google can be unlinked.
    expect(within(methods).getAllByRole('button', { name: 'Unlink' })).toHaveLength(1);

    const unlinkRoute = `DELETE /user/identities/${ada.google!.id}`;
    auth.replyOnce(unlinkRoute, 401, {
      code: 'reauthentication_needed',
      error_code: 'reauthentication_needed',
      msg: 'Confirm your password to continue: this action needs a recent sign-in',
    });
    await userEvent.click(within(methods).getByRole('button', { name: 'Unlink' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm It’s You' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'correct horse');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(methods).findByText('Google sign-in was removed')).toBeInTheDocument();
    expect(within(methods).queryByText('Google')).not.toBeInTheDocument();
    expect(within(methods).queryByRole('button', { name: 'Unlink' })).not.toBeInTheDocument();
    expect(within(methods).getByText('E-mail and password')).toBeInTheDocument();
    expect(auth.requestsTo(unlinkRoute)).toHaveLength(2);
    expect(auth.requestsTo('POST /reauthenticate')).toHaveLength(1);
  });

  it('says why the last way to sign in cannot be unlinked', async () => {
    const auth = createFakeAuthServer();
    const ada = auth.addUser('ada@example.com', 'correct horse', { google: 'ada.lovelace@gmail.example' });
    window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('ada@example.com')));
    renderApp('/settings/security', auth);
    const methods = await screen.findByRole('region', { name: 'Sign-in methods' });
    auth.replyOnce(`DELETE /user/identities/${ada.google!.id}`, 422, {
      code: 'single_identity_not_deletable',
      error_code: 'single_identity_not_deletable',
      msg: 'User must have at least 1 identity after unlinking',
    });
    await userEvent.click(await within(methods).findByRole('button', { name: 'Unlink' }));
    expect(await within(methods).findByRole('alert')).toHaveTextContent(
      'This is the only way to sign in to your account: set a password first (Forgot password?).',
    );
    expect(within(methods).getByText('Google')).toBeInTheDocument();
  });
});
