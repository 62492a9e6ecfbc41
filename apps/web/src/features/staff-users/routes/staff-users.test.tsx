import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

const user = (id: string, email: string, roles: string[]) => ({
  id,
  email,
  username: email.split('@')[0],
  roles,
  created_at: '2026-01-01T00:00:00.000Z',
});

function openAsAdmin(roles: string[] = ['admin']) {
  const auth = createFakeAuthServer();
  const admin = auth.addUser('root@example.com', 'correct horse', { roles, totpCode: '135790' });
  window.localStorage.setItem(
    authStorageKey,
    JSON.stringify(auth.issueSession('root@example.com', undefined, 'aal2')),
  );
  const api = createFakeApiServer(auth);
  let grace = user('user-grace', 'grace@example.com', []);
  api.on('GET /staff/users', (request) => ({
    status: 200,
    body: {
      data: [user(admin.id, 'root@example.com', ['admin']), grace].filter((found) =>
        found.email.includes(request.query.get('query') ?? ''),
      ),
      has_more: false,
    },
  }));
  api.on('PUT /staff/users/user-grace/roles', (request) => {
    grace = user('user-grace', 'grace@example.com', (request.body as { roles: string[] }).roles);
    return { status: 200, body: grace };
  });
  renderApp('/staff/users', api.server);
  return api;
}

describe('/staff/users', () => {
  it('finds a user and saves the roles ticked for them', async () => {
    const api = openAsAdmin();
    await userEvent.type(await screen.findByLabelText('Search users'), 'grace');
    const users = await screen.findByRole('list', { name: 'Users' });
    const row = (await within(users).findByText('grace@example.com')).closest('li')!;
    expect(within(users).queryByText('root@example.com')).not.toBeInTheDocument();
    const save = within(row).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.click(within(row).getByRole('checkbox', { name: 'Mediator' }));
    await userEvent.click(within(row).getByRole('checkbox', { name: 'Compliance' }));
    await userEvent.click(save);
    expect(await screen.findByText('Roles saved')).toBeInTheDocument();
    expect(api.requestsTo('PUT /staff/users/user-grace/roles').map((request) => request.body)).toEqual([
      { roles: ['compliance', 'mediator'] },
    ]);
    expect(
      within((await within(users).findByText('grace@example.com')).closest('li')!).getByRole('checkbox', {
        name: 'Compliance',
      }),
    ).toBeChecked();
  });

  it('does not let an admin untick their own admin role', async () => {
    openAsAdmin();
    const users = await screen.findByRole('list', { name: 'Users' });
    const row = within(users).getByText('root@example.com').closest('li')!;
    expect(within(row).getByRole('checkbox', { name: 'Admin' })).toBeDisabled();
  });

  it('is for admins: other staff see 403', async () => {
    const api = openAsAdmin(['mediator']);
    expect(await screen.findByRole('heading', { name: '403 — Admins only' })).toBeInTheDocument();
    expect(api.requestsTo('GET /staff/users')).toHaveLength(0);
  });
});
