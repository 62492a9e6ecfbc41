import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';
import type { DevMailboxMessage } from '../api/get-dev-mailbox.js';

const confirmLink =
  'http://localhost:3000/auth/v1/verify?token=abc123&type=signup&redirect_to=http://localhost:3000/';
const messages: DevMailboxMessage[] = [
  {
    id: '1767261600000-bb',
    from: 'Covenant <no-reply@covenant.local>',
    to: 'grace@example.com',
    subject: 'Reset your password',
    date: '2026-01-01T10:00:00.000Z',
    text: 'Someone asked to reset your password.',
    html: '<p>Someone asked to reset your password.</p>',
  },
  {
    id: '1767258000000-aa',
    from: 'Covenant <no-reply@covenant.local>',
    to: 'ada@example.com',
    subject: 'Confirm your sign-up',
    date: '2026-01-01T09:00:00.000Z',
    text: `Follow this link to confirm: ${confirmLink}\nThanks.`,
    html: '',
  },
];

/**
 * Opens `path` through the whole app, `signedIn` as an aal2 admin or not, with the server answering
 * `/dev/mailbox.json` as `open` says: the messages, or 404 as to a caller it is not open to.
 */
function openMailbox(path: string, { signedIn, open }: { signedIn: boolean; open: boolean }) {
  const auth = createFakeAuthServer();
  auth.addUser('ops@example.com', 'correct horse', { roles: ['admin'], totpCode: '135790' });
  if (signedIn) {
    window.localStorage.setItem(
      authStorageKey,
      JSON.stringify(auth.issueSession('ops@example.com', undefined, 'aal2')),
    );
  }
  const api = createFakeApiServer(auth);
  const mailboxRequests: Headers[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (new URL(request.url).pathname !== '/dev/mailbox.json') return api.server.fetch(input, init);
    mailboxRequests.push(request.headers);
    return open
      ? Response.json({ messages })
      : Response.json(
          { error: { code: 'NOT_FOUND', message: 'No route GET /dev/mailbox.json', details: null } },
          { status: 404 },
        );
  };
  renderApp(path, { ...api.server, fetch });
  return { mailboxRequests };
}

describe('the dev mailbox page', () => {
  it('says clearly why the mailbox is not open when the server refuses it', async () => {
    const { mailboxRequests } = openMailbox('/dev/mailbox', { signedIn: false, open: false });
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('The dev mailbox is not open to you here.');
    // The page's own port, on localhost: where the mailbox opens on the server's machine.
    expect(notice).toHaveTextContent(
      `browser on the server’s own machine, at http://localhost:${window.location.port}/dev/mailbox`,
    );
    expect(notice).toHaveTextContent('or to an admin signed in with a second factor');
    expect(mailboxRequests[0]?.get('authorization')).toBeNull();
    expect(screen.queryByText('Confirm your sign-up')).not.toBeInTheDocument();
  });

  it("lists the mail, newest first, to an admin the server lets in, with the session's token", async () => {
    const { mailboxRequests } = openMailbox('/dev/mailbox', { signedIn: true, open: true });
    const list = await screen.findByRole('list', { name: 'Messages, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('summary')?.textContent)).toEqual([
      expect.stringContaining('Reset your password'),
      expect.stringContaining('Confirm your sign-up'),
    ]);
    expect(mailboxRequests.at(-1)?.get('authorization')).toMatch(/^Bearer .+/);

    await userEvent.click(screen.getByText('Confirm your sign-up'));
    expect(screen.getByRole('link', { name: confirmLink })).toHaveAttribute('href', confirmLink);
  });

  it('opens the message a /dev/mailbox/:id link names', async () => {
    openMailbox('/dev/mailbox/1767258000000-aa', { signedIn: true, open: true });
    const link = await screen.findByRole('link', { name: confirmLink });
    expect(link.closest('details')).toHaveAttribute('open');
    expect(screen.getByText('Reset your password').closest('details')).not.toHaveAttribute('open');
  });
});
