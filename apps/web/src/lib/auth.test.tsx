import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';
import { useAuth } from './auth.js';
import { authStorageKey } from './auth-client.js';

// The header appears once the first page's code has loaded.
async function header() {
  return within(await screen.findByRole('banner'));
}

function UseAuthProbe() {
  useAuth();
  return null;
}

describe('useAuth', () => {
  it('throws outside an AuthProvider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<UseAuthProbe />)).toThrow(new Error('useAuth must be used within an AuthProvider'));
  });
});

describe('AuthProvider', () => {
  it('shows the session restored from localStorage', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    window.localStorage.setItem(authStorageKey, JSON.stringify(server.issueSession('ada@example.com')));

    renderApp('/', server);

    expect(await (await header()).findByText('ada@example.com')).toBeInTheDocument();
    expect(await (await header()).findByRole('button', { name: 'Sign Out' })).toBeInTheDocument();
    expect((await header()).queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  it('shows a loading state until the first session is known', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    // An expired access token makes the client refresh before it can report the session.
    window.localStorage.setItem(authStorageKey, JSON.stringify(server.issueSession('ada@example.com', -60)));
    const release = server.pause();

    renderApp('/', server);

    expect((await header()).getByRole('status')).toHaveTextContent('Checking your session');
    expect((await header()).queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    release();
    expect(await (await header()).findByText('ada@example.com')).toBeInTheDocument();
  });

  it('shows Sign In and Get Started, both to /auth, when nobody is signed in', async () => {
    renderApp('/', createFakeAuthServer());

    expect(await (await header()).findByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
    expect((await header()).getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/auth');
  });

  it('loads no auth client on a page opened with no session stored and no link to read', async () => {
    const server = createFakeAuthServer();
    const { authClientLoaded } = renderApp('/features', server);

    expect(await (await header()).findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1 }, { timeout: 5000 })).toBeInTheDocument();
    expect(authClientLoaded()).toBe(false);
    expect(server.requestsTo('GET /user')).toHaveLength(0);
  });

  it('loads the auth client when another tab stores a session, and shows it', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const { authClientLoaded } = renderApp('/', server);
    expect(await (await header()).findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    expect(authClientLoaded()).toBe(false);

    const stored = JSON.stringify(server.issueSession('ada@example.com'));
    window.localStorage.setItem(authStorageKey, stored);
    window.dispatchEvent(new StorageEvent('storage', { key: authStorageKey, newValue: stored }));

    expect(await (await header()).findByText('ada@example.com')).toBeInTheDocument();
    expect(authClientLoaded()).toBe(true);
  });

  it('follows the client when it drops a stored session it cannot refresh', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const expired = server.issueSession('ada@example.com', -60);
    window.localStorage.setItem(authStorageKey, JSON.stringify({ ...expired, refresh_token: 'revoked' }));

    renderApp('/', server);

    expect(await (await header()).findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    expect(server.requestsTo('POST /token')[0]?.query.get('grant_type')).toBe('refresh_token');
    expect((await header()).queryByText('ada@example.com')).not.toBeInTheDocument();
    expect(window.localStorage.getItem(authStorageKey)).toBeNull();
  });

  it('drops a stored session the server has revoked, though its access token has not expired', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    window.localStorage.setItem(authStorageKey, JSON.stringify(server.issueSession('ada@example.com')));
    server.replyOnce('GET /user', 403, {
      code: 'session_not_found',
      error_code: 'session_not_found',
      msg: 'Session from session_id claim in JWT does not exist',
    });

    renderApp('/', server);

    expect(await (await header()).findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    expect(server.requestsTo('GET /user')).toHaveLength(1);
    expect(window.localStorage.getItem(authStorageKey)).toBeNull();
  });

  it('keeps a stored session the server still accepts after checking it once', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    window.localStorage.setItem(authStorageKey, JSON.stringify(server.issueSession('ada@example.com')));

    renderApp('/', server);

    await waitFor(() => expect(server.requestsTo('GET /user')).toHaveLength(1));
    expect(await (await header()).findByText('ada@example.com')).toBeInTheDocument();
    expect(window.localStorage.getItem(authStorageKey)).not.toBeNull();
  });

  it('signs out globally from the header', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    window.localStorage.setItem(authStorageKey, JSON.stringify(server.issueSession('ada@example.com')));
    renderApp('/', server);

    await userEvent.click(await (await header()).findByRole('button', { name: 'Sign Out' }));

    expect(await (await header()).findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    expect(server.requestsTo('POST /logout')[0]?.query.get('scope')).toBe('global');
    expect(window.localStorage.getItem(authStorageKey)).toBeNull();
  });

  it('explains a confirmation link the server refused, and clears it from the URL', async () => {
    window.history.replaceState(
      null,
      '',
      '/#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired',
    );

    renderApp('/', createFakeAuthServer());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('That link could not be used.');
    expect(alert).toHaveTextContent('Email link is invalid or has expired');
    expect(window.location.hash).toBe('');

    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('asks for the password when Google came back with the address of an existing account', async () => {
    window.history.replaceState(
      null,
      '',
      `/#${new URLSearchParams({
        error: 'access_denied',
        error_code: 'identity_link_required',
        error_description:
          'This Google account’s e-mail address already has a Covenant account. Sign in with that account’s password to link Google to it.',
      })}`,
    );

    renderApp('/', createFakeAuthServer());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in with Google did not complete.');
    expect(alert).toHaveTextContent('Sign in with that account’s password to link Google to it.');
    expect(alert).not.toHaveTextContent('Links from our e-mails');
    expect(within(alert).getByRole('link', { name: 'sign in' })).toHaveAttribute('href', '/signin');
    expect(window.location.hash).toBe('');
  });
});
