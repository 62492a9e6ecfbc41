import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

// The page the recovery e-mail's link lands on, with the session the server put in the fragment.
function openRecoveryLink(fragment: string) {
  window.history.replaceState(null, '', `/reset-password#${fragment}`);
}

describe('/reset-password', () => {
  it('sets a new password from the recovery link, with the sign-up password rules', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'old secret');
    const session = server.issueSession('ada@example.com');
    openRecoveryLink(
      new URLSearchParams({
        access_token: session.access_token,
        refresh_token: session.refresh_token,
        expires_in: String(session.expires_in),
        expires_at: String(session.expires_at),
        token_type: 'bearer',
        type: 'recovery',
      }).toString(),
    );
    const { router } = renderApp('/reset-password', server);

    await userEvent.type(await screen.findByLabelText('New Password'), 'short');
    expect(window.location.href).toBe(`${window.location.origin}/reset-password`);
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password Too Short')).toBeInTheDocument();
    expect(server.requestsTo('PUT /user')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('New Password'));
    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await userEvent.type(screen.getByLabelText('New Password'), 'new secret');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'new secret');
    await userEvent.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(await screen.findByText('Password Updated')).toBeInTheDocument();
    expect(server.requestsTo('PUT /user')[0]?.body).toMatchObject({ password: 'new secret' });
    // The navigation completes once the trading desk's chunk has loaded.
    await waitFor(() => expect(router.state.location.pathname).toBe('/trading'), { timeout: 5000 });
  });

  it('explains an expired or invalid link instead of showing the form', async () => {
    openRecoveryLink(
      'error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    );
    renderApp('/reset-password', createFakeAuthServer());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Email link is invalid or has expired');
    expect(within(alert).getByRole('link', { name: 'Request a New Link' })).toHaveAttribute('href', '/auth');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
  });

  it('asks for the e-mailed link when opened without one', async () => {
    renderApp('/reset-password', createFakeAuthServer());

    expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
  });
});
