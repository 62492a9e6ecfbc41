import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { authStorageKey } from '@/lib/auth-client.js';
import { apiError, createFakeApiServer } from '@/testing/fake-api-server.js';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { renderApp } from '@/testing/render-app.js';

configure({ asyncUtilTimeout: 5000 });
// Whole flows through several requests each: more time than the default on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const existingKey = {
  id: 'key-1',
  name: 'Treasury bot',
  prefix: 'cov_live_ab12',
  created_at: '2026-03-01T09:00:00.000Z',
  last_used_at: null,
  scopes: ['read'],
};

// A signed-in trader on the settings page; the API starts with one key and no webhooks.
function openSettings() {
  const auth = createFakeAuthServer();
  auth.addUser('ada@example.com', 'correct horse');
  window.localStorage.setItem(authStorageKey, JSON.stringify(auth.issueSession('ada@example.com')));
  const api = createFakeApiServer(auth);
  const keys = [existingKey];
  api.on('GET /api-keys', () => ({ status: 200, body: { data: keys } }));
  api.on('GET /webhooks', { status: 200, body: { data: [] } });
  renderApp('/settings/api-keys', api.server);
  return { api, keys };
}

describe('/settings/api-keys', () => {
  it('sends a signed-out visitor to /auth', async () => {
    const { router } = renderApp('/settings/api-keys', createFakeAuthServer());
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it('creates a named key, shows it once with a copy button, and lists it', async () => {
    const user = userEvent.setup();
    const { api, keys } = openSettings();
    api.on('POST /api-keys', (request) => {
      const created = {
        ...existingKey,
        id: 'key-2',
        name: (request.body as { name: string }).name,
        scopes: (request.body as { scopes: string[] }).scopes,
        prefix: 'cov_live_cd34',
      };
      keys.push(created);
      return { status: 201, body: { ...created, key: 'cov_live_cd34secret' } };
    });
    expect(await screen.findByRole('heading', { name: 'Get API Key' })).toBeInTheDocument();
    expect(await screen.findByText('Treasury bot')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Key Name'), '  Desk integration ');
    await user.selectOptions(screen.getByLabelText('Access'), 'Read and trade');
    await user.click(screen.getByRole('button', { name: 'Create Key' }));

    const shown = await screen.findByRole('region', { name: 'Your new API key "Desk integration"' });
    expect(within(shown).getByText('cov_live_cd34secret')).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('cov_live_cd34secret');
    expect(within(shown).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(api.requestsTo('POST /api-keys')[0]?.body).toEqual({
      name: 'Desk integration',
      scopes: ['read', 'trade'],
    });

    const list = within(screen.getByRole('list', { name: 'API keys' }));
    expect(await list.findByText('Desk integration')).toBeInTheDocument();
    expect(list.getByText(/read and trade/)).toBeInTheDocument();
    expect(list.getByText(/read only/)).toBeInTheDocument();
    expect(list.queryByText('cov_live_cd34secret')).not.toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'I have saved it' }));
    expect(screen.queryByText('cov_live_cd34secret')).not.toBeInTheDocument();
  });

  it('revokes a key after confirmation', async () => {
    const { api, keys } = openSettings();
    api.on('DELETE /api-keys/key-1', () => {
      keys.splice(0, 1);
      return { status: 204 };
    });
    vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);

    await userEvent.click(await screen.findByRole('button', { name: 'Revoke Treasury bot' }));
    expect(api.requestsTo('DELETE /api-keys/key-1')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Revoke Treasury bot' }));
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    expect(api.requestsTo('DELETE /api-keys/key-1')).toHaveLength(1);
  });

  it('shows a failed list with a retry', async () => {
    const { api } = openSettings();
    api.on('GET /api-keys', apiError(500, 'INTERNAL_ERROR', 'Internal error'));
    expect(await screen.findByText('Your API keys could not be loaded.')).toBeInTheDocument();
    api.on('GET /api-keys', { status: 200, body: { data: [existingKey] } });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Treasury bot')).toBeInTheDocument();
  });

  it('adds a webhook, shows its secret once, opens its delivery log and deletes it', async () => {
    const { api } = openSettings();
    const hooks: unknown[] = [];
    api.on('GET /webhooks', () => ({ status: 200, body: { data: hooks } }));
    api.on('POST /webhooks', (request) => {
      const hook = { id: 'hook-1', ...(request.body as object), created_at: '2026-03-01T09:00:00.000Z' };
      hooks.push(hook);
      return { status: 201, body: { ...hook, secret: 'whsec_123' } };
    });
    api.on('GET /webhooks/hook-1/deliveries', {
      status: 200,
      body: {
        data: [
          {
            id: 'del-1',
            event: 'deal.created',
            status: 'failed',
            attempt_count: 2,
            last_attempt_at: '2026-03-01T09:01:00.000Z',
            attempts: [
              {
                attempted_at: '2026-03-01T09:00:00.000Z',
                response_status: null,
                error: 'connect ECONNREFUSED',
                duration_ms: 3,
              },
              {
                attempted_at: '2026-03-01T09:01:00.000Z',
                response_status: 500,
                error: null,
                duration_ms: 12,
              },
            ],
            created_at: '2026-03-01T09:00:00.000Z',
          },
        ],
      },
    });
    api.on('POST /webhooks/hook-1/deliveries/del-1/replay', { status: 202, body: {} });
    api.on('DELETE /webhooks/hook-1', () => {
      hooks.pop();
      return { status: 204 };
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);

    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'not a url');
    await userEvent.click(screen.getByRole('button', { name: 'Add Webhook' }));
    expect(await screen.findByText('Enter the full http(s) address of your endpoint.')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Endpoint URL'));
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'https://example.com/hooks');
    await userEvent.click(screen.getByLabelText('deal.completed'));
    await userEvent.click(screen.getByRole('button', { name: 'Add Webhook' }));

    const shown = await screen.findByRole('region', { name: 'Signing secret for https://example.com/hooks' });
    expect(within(shown).getByText('whsec_123')).toBeInTheDocument();
    expect(api.requestsTo('POST /webhooks')[0]?.body).toEqual({
      url: 'https://example.com/hooks',
      events: ['deal.created', 'deal.completed'],
    });

    const list = within(screen.getByRole('list', { name: 'Webhooks' }));
    await userEvent.click(await list.findByRole('button', { name: 'Delivery Log' }));
    const row = (await list.findByText('failed')).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('deal.created');
    expect(row).toHaveTextContent('HTTP 500');
    await userEvent.click(within(row).getByRole('button', { name: 'Replay' }));
    await waitFor(() =>
      expect(api.requestsTo('POST /webhooks/hook-1/deliveries/del-1/replay')).toHaveLength(1),
    );

    await userEvent.click(list.getByRole('button', { name: 'Delete webhook https://example.com/hooks' }));
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
  });
});
