import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, env: { PUBLIC_URL: 'https://covenant.example' } });
  app = testApp.app;
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

describe('the API description', () => {
  it('is an OpenAPI 3.1 document of every /api/v1 route, from the route schemas', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://covenant.example/api/v1' }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual([
      'Authentication',
      'User',
      'Trading',
      'Escrow',
      'Wallets',
      'Webhooks',
      'API keys',
    ]);
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /auth/login',
        'POST /auth/refresh',
        'POST /deals',
        'GET /deals',
        'GET /deals/{id}',
        'PUT /deals/{id}/terms',
        'POST /escrow/create',
        'POST /escrow/fund',
        'GET /escrow/{id}/status',
        'POST /escrow/release',
        'GET /wallets/balance',
        'POST /wallets/connect',
        'POST /api-keys',
        'GET /api-keys',
        'DELETE /api-keys/{id}',
        'POST /deals/{id}/travel',
        'GET /deals/{id}/travel',
        'POST /deals/{id}/travel/{item_id}/cancel',
        'GET /deals/{id}/travel/{item_id}/file',
        'GET /staff/travel',
        'POST /staff/travel/{item_id}/quote',
        'POST /staff/travel/{item_id}/file',
        'GET /staff/travel/{item_id}/file',
        'POST /staff/travel/{item_id}/booked',
        'GET /partners/matches',
        'PATCH /user/profile',
      ]),
    );
    expect(operations).not.toContain('GET /openapi.json');
    const create = document.paths['/deals'].post;
    expect(create.tags).toEqual(['Trading']);
    expect(create.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(create.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['asset_chain', 'asset_amount', 'counterparty_id']),
    );
    expect(document.paths['/auth/login'].post.security).toBeUndefined();
  });

  it('is browsable at /api/v1/docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('<h2>Trading</h2>');
    expect(response.body).toContain('<code>/deals/{id}/terms</code>');
    expect(response.body).toContain('https://covenant.example/api/v1');
  });
});
