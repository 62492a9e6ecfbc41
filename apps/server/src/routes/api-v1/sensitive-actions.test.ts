import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { devnetPrivateKey } from '@covenant/devnets';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generate, generateSecret } from 'otplib';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

const password = 'correct horse battery staple 42';
const escrowAddress = privateKeyToAccount(devnetPrivateKey(15)).address;
const escrowKey = {
  ciphertext: 'c2VhbGVkIHNlZWQgYnl0ZXMgYW5kIGEgZ2NtIHRhZw==',
  encryption: {
    kdf: 'PBKDF2',
    hash: 'SHA-256',
    iterations: 600_000,
    salt: 'AAECAwQFBgcICQoLDA0ODw==',
    cipher: 'AES-256-GCM',
    iv: 'AAECAwQFBgcICQoL',
  },
  ethereum_address: escrowAddress,
};
const payoutEth = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
const checksummedEth = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const otherEth = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
/** The app's clock; tests move it past the reauthentication window (600 s by default). */
let now = new Date('2031-05-01T10:00:00Z');
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database, clock: () => now, authLimits: { sleep: async () => undefined } });
  app = testApp.app;
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${token}` },
  });
}

async function createKey(trader: TestTrader, scopes?: string[]): Promise<string> {
  const created = await call('POST', '/api/v1/api-keys', trader.token, {
    name: 'bot',
    ...(scopes ? { scopes } : {}),
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().key as string;
}

describe('sensitive actions refuse API keys (F6)', () => {
  it('answers 403 to an API key on PUT /api/v1/wallets/escrow-key and leaves no key stored', async () => {
    const owner = await createTestTrader(app);
    const key = await createKey(owner, ['read', 'trade']);
    const refused = await call('PUT', '/api/v1/wallets/escrow-key', key, escrowKey);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This action needs a signed-in session; API keys cannot perform it',
      details: { reason: 'api_key_not_allowed' },
    });
    const stored = await database.db
      .select()
      .from(schema.escrowKeys)
      .where(eq(schema.escrowKeys.userId, owner.id));
    expect(stored).toEqual([]);
    // The same session does it.
    const saved = await call('PUT', '/api/v1/wallets/escrow-key', owner.token, escrowKey);
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('answers 403 to an API key on every other sensitive or session-only action of both APIs', async () => {
    const owner = await createTestTrader(app);
    const key = await createKey(owner, ['read', 'trade']);
    for (const [method, url, payload] of [
      ['POST', '/api/v1/wallets/connect', { chain: 'ETH', address: checksummedEth }],
      ['POST', '/api/v1/api-keys', { name: 'another', scopes: ['read'] }],
      ['GET', '/api/v1/api-keys', undefined],
      ['POST', '/api/v1/webhooks', { url: 'https://example.com/hook', events: ['deal.created'] }],
      ['GET', '/api/v1/wallets/escrow-key', undefined],
      ['POST', '/api/v1/kyc', {}],
    ] as const) {
      const refused = await call(method, url, key, payload);
      expect([method, url, refused.statusCode, refused.json().error?.details]).toEqual([
        method,
        url,
        403,
        { reason: 'api_key_not_allowed' },
      ]);
    }
    for (const [method, url, payload] of [
      ['PUT', '/auth/v1/user', { email: 'taken-over@example.com' }],
      ['POST', '/auth/v1/factors', { factor_type: 'totp' }],
      ['GET', '/auth/v1/user', undefined],
      ['POST', '/auth/v1/reauthenticate', { password }],
      ['DELETE', '/auth/v1/user/identities/00000000-0000-4000-8000-000000000000', undefined],
    ] as const) {
      const refused = await call(method, url, key, payload);
      expect([method, url, refused.statusCode, refused.json().error_code]).toEqual([
        method,
        url,
        403,
        'api_key_not_allowed',
      ]);
    }
  });
});

describe('API key scopes', () => {
  it('creates read-only keys by default, shows the scopes, and refuses a read key a trade action', async () => {
    const owner = await createTestTrader(app);
    const seller = await createTestTrader(app);
    const readKey = await createKey(owner);
    const tradeKey = await createKey(owner, ['trade']);
    const listed = await call('GET', '/api/v1/api-keys', owner.token);
    const scopes = listed.json().data.map((key: { scopes: string[] }) => key.scopes.join(' '));
    expect(scopes.sort()).toEqual(['read', 'read trade']);

    const newDeal = {
      asset_chain: 'ETH',
      asset_symbol: 'ETH',
      asset_amount: '1000000000000000000',
      stable_chain: 'ETH',
      stable_symbol: 'USDC',
      stable_amount: '3000000000',
      counterparty_id: seller.id,
    };
    const refused = await call('POST', '/api/v1/deals', readKey, newDeal);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: 'scope_missing' },
    });
    expect((await call('GET', '/api/v1/deals', readKey)).statusCode).toBe(200);

    const created = await call('POST', '/api/v1/deals', tradeKey, newDeal);
    expect(created.statusCode, created.body).toBe(201);
    const dealId = created.json().id as string;
    const cancel = await call('POST', `/api/v1/deals/${dealId}/cancel`, readKey, {
      reason: 'changed my mind',
    });
    expect(cancel.statusCode).toBe(403);
    expect((await call('GET', `/api/v1/deals/${dealId}`, readKey)).statusCode).toBe(200);
  });

  it('refuses unknown or empty scopes with 400', async () => {
    const owner = await createTestTrader(app);
    for (const scopes of [[], ['admin'], 'read', ['read', 'trade', 'read']]) {
      const refused = await call('POST', '/api/v1/api-keys', owner.token, { name: 'bad', scopes });
      expect([JSON.stringify(scopes), refused.statusCode]).toEqual([JSON.stringify(scopes), 400]);
    }
  });
});

describe('recent authentication (ASVS 3.7.1)', () => {
  it('asks a stale session to reauthenticate, and lets it through once it has', async () => {
    const owner = await createTestTrader(app, { password });
    later(601);
    const stale = await call('PUT', '/api/v1/wallets/escrow-key', owner.token, escrowKey);
    expect(stale.statusCode, stale.body).toBe(403);
    expect(stale.json().error).toMatchObject({
      code: 'REAUTHENTICATION_NEEDED',
      details: { reauthenticate: '/auth/v1/reauthenticate' },
    });
    // Reads and deal actions do not need it.
    expect((await call('GET', '/api/v1/deals', owner.token)).statusCode).toBe(200);

    const wrong = await call('POST', '/auth/v1/reauthenticate', owner.token, { password: 'not it at all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error_code).toBe('invalid_credentials');
    expect((await call('PUT', '/api/v1/wallets/escrow-key', owner.token, escrowKey)).statusCode).toBe(403);

    const renewed = await call('POST', '/auth/v1/reauthenticate', owner.token, { password });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const session = renewed.json();
    expect(session).toMatchObject({ token_type: 'bearer', user: { id: owner.id } });
    const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString());
    expect(claims.amr).toContainEqual({ method: 'password', timestamp: Math.floor(now.getTime() / 1000) });

    const saved = await call('PUT', '/api/v1/wallets/escrow-key', session.access_token, escrowKey);
    expect(saved.statusCode, saved.body).toBe(200);
    // The window runs again from the reauthentication.
    later(601);
    const again = await call('POST', '/api/v1/api-keys', session.access_token, { name: 'late' });
    expect(again.json().error?.code).toBe('REAUTHENTICATION_NEEDED');
  });

  it('asks for the TOTP code when the account has a verified factor', async () => {
    const owner = await createTestTrader(app, { password });
    const secret = generateSecret();
    await database.db
      .insert(schema.mfaFactors)
      .values({ userId: owner.id, factorType: 'totp', status: 'verified', secret, friendlyName: 'phone' });
    later(601);
    const withoutCode = await call('POST', '/auth/v1/reauthenticate', owner.token, { password });
    expect(withoutCode.statusCode).toBe(400);
    expect(withoutCode.json().msg).toContain('code required');
    const wrongCode = await call('POST', '/auth/v1/reauthenticate', owner.token, {
      password,
      code: '000000',
    });
    expect(wrongCode.statusCode).toBe(422);
    const code = await generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
    const renewed = await call('POST', '/auth/v1/reauthenticate', owner.token, { password, code });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const claims = JSON.parse(Buffer.from(renewed.json().access_token.split('.')[1], 'base64url').toString());
    expect(claims.aal).toBe('aal2');
    // A code is accepted once.
    const replayed = await call('POST', '/auth/v1/reauthenticate', owner.token, { password, code });
    expect(replayed.statusCode).toBe(422);
  });

  it('asks a user with a second factor for its code even right after a password sign-in', async () => {
    const owner = await createTestTrader(app, { password });
    const secret = generateSecret();
    await database.db
      .insert(schema.mfaFactors)
      .values({ userId: owner.id, factorType: 'totp', status: 'verified', secret, friendlyName: 'phone' });
    // Signed in with the password a moment ago: enough for an account without a factor, not for this one.
    const fresh = await call('PUT', '/api/v1/wallets/escrow-key', owner.token, escrowKey);
    expect(fresh.statusCode, fresh.body).toBe(403);
    expect(fresh.json().error.code).toBe('REAUTHENTICATION_NEEDED');
    const key = await call('POST', '/api/v1/api-keys', owner.token, { name: 'bot' });
    expect(key.json().error?.code).toBe('REAUTHENTICATION_NEEDED');
    const email = await call('PUT', '/auth/v1/user', owner.token, {
      email: 'taken-over@example.com',
      current_password: password,
    });
    expect([email.statusCode, email.json().error_code]).toEqual([401, 'reauthentication_needed']);
    const [user] = await database.db.select().from(schema.users).where(eq(schema.users.id, owner.id));
    expect(user?.newEmail ?? null).toBeNull();

    // With the code, the session may for the window.
    const code = await generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
    const renewed = await call('POST', '/auth/v1/reauthenticate', owner.token, { password, code });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const token = renewed.json().access_token as string;
    const saved = await call('PUT', '/api/v1/wallets/escrow-key', token, escrowKey);
    expect(saved.statusCode, saved.body).toBe(200);
    later(601);
    expect((await call('PUT', '/api/v1/wallets/escrow-key', token, escrowKey)).statusCode).toBe(403);
  });

  it('counts wrong current passwords of an e-mail or password change like failed sign-ins', async () => {
    const owner = await createTestTrader(app, { password });
    later(601);
    const answers: number[] = [];
    for (let guess = 0; guess < 32; guess++) {
      const response = await call('PUT', '/auth/v1/user', owner.token, {
        email: 'guessed@example.com',
        current_password: `wrong guess ${guess}`,
      });
      answers.push(response.statusCode);
    }
    // Ten failures on the session as a known device, then the account's twenty (ADR 012), then
    // refused before the password is even checked: no faster than guessing by signing in.
    expect(answers.slice(0, 30)).toEqual(Array(30).fill(400));
    expect(answers.slice(30)).toEqual([429, 429]);
    const right = await call('PUT', '/auth/v1/user', owner.token, {
      email: 'guessed@example.com',
      current_password: password,
    });
    expect(right.statusCode).toBe(429);
  });

  it('asks a stale session before an e-mail change or a new factor, not before a profile change', async () => {
    const owner = await createTestTrader(app, { password });
    later(601);
    const email = await call('PUT', '/auth/v1/user', owner.token, { email: 'new-address@example.com' });
    expect([email.statusCode, email.json().error_code]).toEqual([401, 'reauthentication_needed']);
    const factor = await call('POST', '/auth/v1/factors', owner.token, { factor_type: 'totp' });
    expect([factor.statusCode, factor.json().error_code]).toEqual([401, 'reauthentication_needed']);
    const metadata = await call('PUT', '/auth/v1/user', owner.token, { data: { first_name: 'Ada' } });
    expect(metadata.statusCode, metadata.body).toBe(200);

    expect((await call('POST', '/auth/v1/reauthenticate', owner.token, { password })).statusCode).toBe(200);
    const changed = await call('PUT', '/auth/v1/user', owner.token, { email: 'new-address@example.com' });
    expect(changed.statusCode, changed.body).toBe(200);
  });

  it('asks before replacing deal addresses, agreed or not, not before setting them', async () => {
    const buyer = await createTestTrader(app, { password });
    const seller = await createTestTrader(app);
    const created = await call('POST', '/api/v1/deals', buyer.token, {
      asset_chain: 'ETH',
      asset_symbol: 'WBTC',
      asset_amount: '50000000',
      stable_chain: 'ETH',
      stable_symbol: 'USDC',
      stable_amount: '30000000000',
      counterparty_id: seller.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const dealId = created.json().id as string;
    const addresses = (payout: string, refund: string) => ({
      payout_address: payout,
      refund_address: refund,
    });
    later(601);
    const first = await call(
      'PUT',
      `/api/v1/deals/${dealId}/addresses`,
      buyer.token,
      addresses(payoutEth, checksummedEth),
    );
    expect(first.statusCode, first.body).toBe(200);
    // Before agreement too: otherwise proposing the agreed terms again would clear the way.
    const early = await call(
      'PUT',
      `/api/v1/deals/${dealId}/addresses`,
      buyer.token,
      addresses(payoutEth, otherEth),
    );
    expect(early.statusCode, early.body).toBe(403);
    expect(early.json().error.code).toBe('REAUTHENTICATION_NEEDED');
    await database.db
      .update(schema.deals)
      .set({ status: 'terms_agreed', termsAgreedAt: now })
      .where(eq(schema.deals.id, dealId));
    const replaced = await call(
      'PUT',
      `/api/v1/deals/${dealId}/addresses`,
      buyer.token,
      addresses(payoutEth, otherEth),
    );
    expect(replaced.statusCode, replaced.body).toBe(403);
    expect(replaced.json().error.code).toBe('REAUTHENTICATION_NEEDED');
    const [kept] = await database.db
      .select()
      .from(schema.dealAddresses)
      .where(eq(schema.dealAddresses.dealId, dealId));
    expect(kept?.refundAddress).toBe(checksummedEth);

    expect((await call('POST', '/auth/v1/reauthenticate', buyer.token, { password })).statusCode).toBe(200);
    const allowed = await call(
      'PUT',
      `/api/v1/deals/${dealId}/addresses`,
      buyer.token,
      addresses(payoutEth, otherEth),
    );
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});

describe('access declarations', () => {
  it('refuses to build the app with a route that declares no access', async () => {
    const build = await buildTestApp({ database });
    try {
      expect(() => build.app.get('/api/v1/undeclared', async () => ({ ok: true }))).toThrow(
        /GET \/api\/v1\/undeclared declares no access/,
      );
      expect(() =>
        build.app.get('/auth/v1/undeclared', { config: { access: 'nobody' as never } }, async () => ({})),
      ).toThrow(/declares no access/);
      // Outside the two APIs (health checks, the web app) nothing is required.
      build.app.get('/elsewhere', async () => ({ ok: true }));
    } finally {
      await build.close();
    }
  });

  it('publishes every operation’s access in the API description', async () => {
    const document = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const operations = Object.entries(
      document.paths as Record<string, Record<string, Record<string, unknown>>>,
    ).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(60);
    for (const { path, method, operation } of operations) {
      expect([method, path, operation['x-access']]).toEqual([method, path, expect.any(String)]);
    }
    expect(document.paths['/wallets/escrow-key'].put['x-access']).toBe('sensitive');
    expect(document.paths['/deals/{id}/addresses'].put).toMatchObject({
      'x-access': 'trade',
      'x-sensitive-when': 'replacing addresses already set',
    });
  });
});
