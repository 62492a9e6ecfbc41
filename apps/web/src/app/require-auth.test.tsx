import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

describe('/trading guard', () => {
  it('sends a signed-out visitor to /auth', async () => {
    const { router } = renderApp('/trading', createFakeAuthServer());

    // The router loads the trading desk's chunk before the guard redirects: allow for it on a busy machine.
    expect(await screen.findByRole('tab', { name: 'Sign In' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('shows a spinner while the session loads, then the trading page', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    // An expired access token keeps the session loading until the refresh is answered.
    window.localStorage.setItem(authStorageKey, JSON.stringify(server.issueSession('ada@example.com', -60)));
    const release = server.pause();
    const { router } = renderApp('/trading', server);

    const main = within(await screen.findByRole('main'));
    expect(main.getByRole('status')).toHaveTextContent('Loading your session');
    release();

    expect(await main.findByRole('heading', { name: 'Trading' }, { timeout: 5000 })).toBeInTheDocument();
    expect(main.getByText('ada@example.com')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/trading');
    expect(document.title).toBe('Trading | Covenant');
  });
});
