import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

configure({ asyncUtilTimeout: 5000 });

const notification = (id: string, title: string, read: boolean) => ({
  id,
  deal_id: '7f0c2c1e-4b1a-4c44-9a57-2a1b8f0e9d11',
  kind: 'terms_proposed',
  title,
  body: 'Review the new terms, then accept them or propose a counter-offer.',
  read_at: read ? '2026-03-05T10:00:00.000Z' : null,
  created_at: '2026-03-05T09:00:00.000Z',
});

function signIn() {
  const auth = createFakeAuthServer();
  auth.addUser('grace@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('grace@example.com')));
  return createFakeApiServer(auth);
}

describe('the notifications bell', () => {
  it('shows the unread count, lists the notifications with links to their deals, and marks all read', async () => {
    const api = signIn();
    let unread = 2;
    api.on('GET /notifications', () => ({
      status: 200,
      body: {
        data: [
          notification('n2', 'New terms proposed (version 3)', unread === 0),
          notification('n1', 'Deal cancelled', unread === 0),
        ],
        has_more: false,
        next_cursor: null,
        unread_count: unread,
      },
    }));
    api.on('POST /notifications/read-all', () => {
      unread = 0;
      return { status: 200, body: { marked: 2 } };
    });
    renderApp('/', api.server);

    const bell = await screen.findByLabelText('Notifications, 2 unread');
    await userEvent.click(bell);
    const list = screen.getByRole('list', { name: 'Notifications' });
    const link = within(list).getByRole('link', { name: /New terms proposed \(version 3\)/ });
    expect(link).toHaveAttribute('href', '/trading/deals/7f0c2c1e-4b1a-4c44-9a57-2a1b8f0e9d11');
    expect(within(list).getAllByText('Unread:')).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(api.requestsTo('POST /notifications/read-all')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByLabelText(/, \d+ unread$/)).not.toBeInTheDocument());
    expect(within(list).queryByText('Unread:')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  });

  it('marks a notification read when it is opened', async () => {
    const api = signIn();
    api.on('GET /notifications', {
      status: 200,
      body: {
        data: [notification('n1', 'Deal cancelled', false)],
        has_more: false,
        next_cursor: null,
        unread_count: 1,
      },
    });
    api.on('POST /notifications/n1/read', { status: 200, body: notification('n1', 'Deal cancelled', true) });
    renderApp('/', api.server);
    await userEvent.click(await screen.findByLabelText('Notifications, 1 unread'));
    await userEvent.click(screen.getByRole('link', { name: /Deal cancelled/ }));
    await waitFor(() => expect(api.requestsTo('POST /notifications/n1/read')).toHaveLength(1));
  });

  it('is not there for visitors', async () => {
    const api = createFakeApiServer(createFakeAuthServer());
    renderApp('/', api.server);
    expect((await screen.findAllByRole('link', { name: 'Sign In' })).length).toBeGreaterThan(0);
    expect(screen.queryByLabelText(/^Notifications/)).not.toBeInTheDocument();
    expect(api.requestsTo('GET /notifications')).toEqual([]);
  });
});
