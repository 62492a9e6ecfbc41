import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let app: FastifyInstance;
let buyer: TestTrader;

beforeAll(async () => {
  parties = await startDealParties();
  ({ app, buyer } = parties);
});
afterAll(async () => {
  await parties?.close();
});

/**
 * Sends `json` as written: a `\ud800` escape reaches the server as the six characters and becomes a
 * lone surrogate only when the server parses it, as from any client.
 */
function send(method: 'POST' | 'PUT', url: string, json: string, token = buyer.token) {
  return app.inject({
    method,
    url,
    payload: json,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

function expectInvalidText(response: LightMyRequestResponse, place = 'body') {
  expect(response.statusCode, response.body).toBe(422);
  const { error } = response.json();
  expect(error).toMatchObject({ code: 'INVALID_TEXT', details: { in: place } });
  expect(error.message).toMatch(/NUL|control characters/);
  expect(typeof error.timestamp).toBe('string');
}

describe('text refused at the schema edge (F1, F2)', () => {
  it('answers 422, not 500, to an API key name holding NUL (F1), and stores nothing', async () => {
    const response = await send('POST', '/api/v1/api-keys', '{"name":"a\\u0000b"}');
    expectInvalidText(response);
    expect(response.json().error.details.issues).toEqual([{ path: '/name', message: expect.any(String) }]);
    const keys = await app.database.db
      .select()
      .from(schema.apiKeys)
      .where(eq(schema.apiKeys.userId, buyer.id));
    expect(keys).toEqual([]);
  });

  it('refuses a name with a direction override or a line break, with the message the form shows', async () => {
    for (const name of ['evil\\u202egnp.exe', 'two\\nlines', 'bell\\u0007']) {
      const response = await send('POST', '/api/v1/api-keys', `{"name":"${name}"}`);
      expectInvalidText(response);
      expect(response.json().error.message).toBe(
        'Remove control characters, line breaks and text-direction overrides: they are not allowed here',
      );
    }
    const fine = await send('POST', '/api/v1/api-keys', '{"name":"Bot № 2 — Zürich 🚀"}');
    expect(fine.statusCode).toBe(201);
  });

  it('answers 422 to a cancel reason holding NUL or a lone surrogate (F2), and the deal stays open', async () => {
    const dealId = await parties.newDeal();
    for (const reason of ['no\\u0000way', 'lone \\ud800 surrogate', 'low \\udfff first', 'bidi \\u2066']) {
      const response = await send('POST', `/api/v1/deals/${dealId}/cancel`, `{"reason":"${reason}"}`);
      expectInvalidText(response);
    }
    const deal = await parties.call('GET', `/api/v1/deals/${dealId}`, buyer.token);
    expect(deal.json()).toMatchObject({ status: 'draft' });
    expect(deal.json().history.map((entry: { action: string }) => entry.action)).toEqual(['created']);
    const multiLine = await send(
      'POST',
      `/api/v1/deals/${dealId}/cancel`,
      '{"reason":"Line one\\n\\tLine two"}',
    );
    expect(multiLine.statusCode).toBe(200);
  });

  it('refuses NUL anywhere: a deal room message, an unknown field, a key, the query and the path', async () => {
    const dealId = await parties.newDeal();
    expectInvalidText(await send('POST', `/api/v1/deals/${dealId}/messages`, '{"body":"hi\\u0000"}'));
    expectInvalidText(await send('POST', `/api/v1/deals/${dealId}/messages`, '{"body":"ring \\u0007"}'));
    expectInvalidText(await send('POST', '/api/v1/api-keys', '{"name":"ok","extra":["\\ud800"]}'));
    expectInvalidText(await send('POST', '/api/v1/api-keys', '{"name":"ok","a\\u0000":1}'));
    const query = await app.inject({
      method: 'GET',
      url: '/api/v1/deals?status=%00',
      headers: { authorization: `Bearer ${buyer.token}` },
    });
    expectInvalidText(query, 'querystring');
    const path = await app.inject({
      method: 'GET',
      url: '/api/v1/deals/%00',
      headers: { authorization: `Bearer ${buyer.token}` },
    });
    expectInvalidText(path, 'params');
    const message = await send('POST', `/api/v1/deals/${dealId}/messages`, '{"body":"Two\\nlines are fine"}');
    expect(message.statusCode).toBe(201);
  });

  it('answers 422, not 500, to a NUL in a search the database would run (found by fuzzing)', async () => {
    const staff = await createTestTrader(app, { roles: ['admin'] });
    const searches = [
      ['/api/v1/partners?search=%00ada', buyer.token],
      ['/api/v1/staff/users?query=%00ada', staff.token],
    ] as const;
    for (const [url, token] of searches) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
      });
      expectInvalidText(response, 'querystring');
    }
  });

  it('refuses input nested deeper than any route takes with 400, without running out of stack', async () => {
    const deep = `{"name":"ok","extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const response = await send('POST', '/api/v1/api-keys', deep);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/nested deeper/),
    });
  });

  it('answers a path segment that is not percent-encoded UTF-8 with 400 in the error shape of its API (fuzzing)', async () => {
    const api = await app.inject({
      method: 'GET',
      url: '/api/v1/deals/00000000-0000-0000-0000-000000000000/cis/%ED%A0%80/pdf',
      headers: { authorization: `Bearer ${buyer.token}` },
    });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toEqual({
      error: {
        code: 'BAD_REQUEST',
        message: 'The URL is not valid: a path segment is not percent-encoded UTF-8',
        details: null,
        timestamp: expect.any(String),
      },
    });
    const auth = await app.inject({ method: 'DELETE', url: '/auth/v1/factors/%ED%A0%80' });
    expect(auth.statusCode).toBe(400);
    expect(auth.json()).toMatchObject({
      code: 'validation_failed',
      msg: expect.stringMatching(/not percent-encoded/),
    });
  });

  it('answers /auth/v1 in GoTrue’s shape: 422 validation_failed naming the field', async () => {
    const signUp = await app.inject({
      method: 'POST',
      url: '/auth/v1/signup',
      payload: '{"email":"a\\u0000@example.com","password":"correct horse battery"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(signUp.statusCode).toBe(422);
    expect(signUp.json()).toMatchObject({ code: 'validation_failed', error_code: 'validation_failed' });
    expect(signUp.json().msg).toMatch(/^body\.email: Text must not contain NUL/);

    const names = await send('PUT', '/auth/v1/user', '{"data":{"first_name":"Ada\\u202e"}}');
    expect(names.statusCode).toBe(422);
    expect(names.json()).toMatchObject({ code: 'validation_failed' });
    expect(names.json().msg).toMatch(/^body\.data\.first_name: Remove control characters/);
  });
});
