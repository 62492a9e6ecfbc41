import { describe, expect, it } from 'vitest';
import { documentedEndpoints, groupEndpoints, listEndpoints } from './list-endpoints.js';

describe('listEndpoints', () => {
  it('shows the documented list when the server publishes no document, or one without paths', () => {
    expect(listEndpoints(null)).toHaveLength(12);
    expect(listEndpoints({ paths: {} }).every((endpoint) => !endpoint.pending)).toBe(true);
  });

  it('takes the live operations, resolves relative paths and marks documented ones not live yet', () => {
    const endpoints = listEndpoints({
      servers: [{ url: 'https://api.example/api/v1' }],
      paths: {
        '/auth/login': {
          post: { tags: ['Authentication'], summary: 'Log in with e-mail and password', security: [] },
          parameters: [],
        },
        '/deals': { post: { summary: 'Create a deal', security: [{ bearerAuth: [] }] } },
        '/api-keys': {
          get: { tags: ['API keys'], summary: 'List your API keys', security: [{ bearerAuth: [] }] },
        },
        '/support/contact': { post: { tags: ['Support'], summary: 'Send a message' } },
        '/deals/{id}/cancel': { post: { summary: 'Old way', deprecated: true } },
      },
    });

    expect(endpoints.find((endpoint) => endpoint.path === '/api/v1/auth/login')).toEqual({
      method: 'POST',
      path: '/api/v1/auth/login',
      auth: 'None',
      description: 'Log in with e-mail and password',
      group: 'Authentication',
      pending: false,
    });
    expect(endpoints.find((endpoint) => endpoint.path === '/api/v1/deals')).toMatchObject({
      group: 'Trading',
      auth: 'Bearer',
      pending: false,
    });
    expect(endpoints.find((endpoint) => endpoint.path === '/api/v1/api-keys')).toMatchObject({
      group: 'API keys',
      auth: 'Bearer',
    });
    expect(endpoints.find((endpoint) => endpoint.path === '/api/v1/support/contact')).toMatchObject({
      group: 'Support',
      auth: 'None',
    });
    expect(endpoints.some((endpoint) => endpoint.path.endsWith('/cancel'))).toBe(false);
    // 12 documented, 2 of them live, plus the live API-keys and contact operations.
    expect(endpoints).toHaveLength(14);
    expect(endpoints.filter((endpoint) => endpoint.pending)).toHaveLength(10);
    expect(endpoints.find((endpoint) => endpoint.path === '/api/v1/wallets/balance')?.pending).toBe(true);
  });

  it('groups in the documented order, other groups after', () => {
    const groups = groupEndpoints(
      listEndpoints({ paths: { '/api/v1/webhooks': { get: { tags: ['Webhooks'], summary: 'List' } } } }),
    );
    expect(groups.map((entry) => entry.group)).toEqual([
      'Authentication',
      'User',
      'Trading',
      'Escrow',
      'Wallets',
      'Webhooks',
    ]);
    expect(groups[0]?.endpoints.map((endpoint) => endpoint.path)).toEqual(
      documentedEndpoints
        .filter((endpoint) => endpoint.group === 'Authentication')
        .map((endpoint) => endpoint.path),
    );
  });
});
