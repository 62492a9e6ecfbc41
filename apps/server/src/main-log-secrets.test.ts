import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { generate } from 'otplib';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './testing/start-server-process.js';

/**
 * The whole product run as `npm start` runs it, logging everything it can (trace, JSON), driven
 * through a user's life over HTTP; then every secret the run sent or produced is looked for in the
 * log. A database failure is part of the run: a CHECK constraint this test adds refuses one API
 * key name, so the insert that carries a new key's hash fails as any database error would.
 */
const refusedName = 'refused by the database';

let dataDir: string;
let postgres: Database | undefined;
let server: ServerProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'covenant-log-secrets-'));
  // The database is prepared before the server opens it: PGlite serves one process at a time.
  const database =
    process.env.TEST_DB === 'postgres'
      ? await createTestDatabase()
      : await openDatabase({ engine: 'pglite', dataDir: join(dataDir, 'pglite') });
  await database.migrate();
  await database.executeSql(
    `alter table api_keys add constraint api_keys_name_refused_by_test check (name <> '${refusedName}')`,
  );
  if (database.engine === 'postgres') postgres = database;
  else await database.close();
}, 120_000);

afterAll(async () => {
  await server?.kill();
  await postgres?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Every value the run must never see in its log. */
const secrets = new Map<string, string>();
function keep(what: string, value: string | undefined): string {
  if (!value) throw new Error(`the run produced no ${what}`);
  secrets.set(what, value);
  return value;
}

let requestsMade = 0;

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  requestsMade++;
  const response = await fetch(`${server!.url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      cookie: `covenant-session=${secrets.get('cookie')}`,
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : {} };
}

function sessionOf(answer: { status: number; json: Record<string, unknown> }, what: string): string {
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  keep(`${what} refresh token`, answer.json.refresh_token as string);
  return keep(`${what} access token`, answer.json.access_token as string);
}

describe('the log of a full run', { timeout: 240_000 }, () => {
  it('holds no password, token, key, hash, secret or ciphertext the run used', async () => {
    keep('cookie', `cookie-${randomBytes(12).toString('hex')}`);
    server = await startServerProcess({
      NODE_ENV: 'test',
      LOG_LEVEL: 'trace',
      LOG_FORMAT: 'json',
      DATA_DIR: dataDir,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ...(postgres ? { DATABASE_URL: postgres.connectionString } : {}),
    });
    const email = `logs-${randomBytes(4).toString('hex')}@example.com`;
    const password = keep('password', `Pw-${randomBytes(12).toString('base64url')}`);

    // Sign up, and confirm through the link in the dev mailbox.
    expect((await call('POST', '/auth/v1/signup', { body: { email, password } })).status).toBe(200);
    let link: string | undefined;
    for (let attempt = 0; attempt < 100 && !link; attempt++) {
      const mailbox = (await call('GET', '/dev/mailbox.json')).json as unknown as {
        messages: { to: string; text: string }[];
      };
      const mail = mailbox.messages.find((message) => message.to.includes(email));
      link = mail?.text.match(/https?:\/\/\S+\/auth\/v1\/verify\?\S+/)?.[0];
      if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const verifyUrl = new URL(link ?? '');
    keep('confirmation link token', verifyUrl.searchParams.get('token') ?? undefined);
    requestsMade++;
    const confirmed = await fetch(`${server.url}${verifyUrl.pathname}${verifyUrl.search}`, {
      redirect: 'manual',
    });
    const fragment = new URLSearchParams(new URL(confirmed.headers.get('location') ?? '').hash.slice(1));
    keep('confirmation access token', fragment.get('access_token') ?? undefined);
    keep('confirmation refresh token', fragment.get('refresh_token') ?? undefined);

    // Sign in on both APIs, and refresh on both.
    const signedIn = await call('POST', '/auth/v1/token?grant_type=password', { body: { email, password } });
    let token = sessionOf(signedIn, 'sign-in');
    const apiLogin = await call('POST', '/api/v1/auth/login', { body: { email, password } });
    sessionOf(apiLogin, 'API sign-in');
    token = sessionOf(
      await call('POST', '/auth/v1/token?grant_type=refresh_token', {
        body: { refresh_token: signedIn.json.refresh_token },
      }),
      'refresh',
    );
    sessionOf(
      await call('POST', '/api/v1/auth/refresh', { body: { refresh_token: apiLogin.json.refresh_token } }),
      'API refresh',
    );

    // Enrol a TOTP factor and verify it with a code.
    const enrolled = await call('POST', '/auth/v1/factors', { token, body: { factor_type: 'totp' } });
    expect(enrolled.status, JSON.stringify(enrolled.json)).toBe(200);
    const totp = enrolled.json.totp as unknown as { secret: string; uri: string };
    const totpSecret = keep('TOTP secret', totp.secret);
    const factorId = enrolled.json.id as string;
    const challenge = await call('POST', `/auth/v1/factors/${factorId}/challenge`, { token, body: {} });
    const code = await generate({ secret: totpSecret });
    token = sessionOf(
      await call('POST', `/auth/v1/factors/${factorId}/verify`, {
        token,
        body: { challenge_id: challenge.json.id, code },
      }),
      'second-factor',
    );

    // An API key, used; a webhook endpoint; an escrow key.
    const created = await call('POST', '/api/v1/api-keys', { token, body: { name: 'desk' } });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const apiKey = keep('API key', created.json.key as string);
    keep('API key hash', createHash('sha256').update(apiKey).digest('hex'));
    expect((await call('GET', '/api/v1/user/profile', { token: apiKey })).status).toBe(200);
    const webhook = await call('POST', '/api/v1/webhooks', {
      token,
      body: { url: 'http://127.0.0.1:9/covenant-hook', events: ['deal.created'] },
    });
    expect(webhook.status, JSON.stringify(webhook.json)).toBe(201);
    keep('webhook secret', webhook.json.secret as string);
    const escrowKey = await call('PUT', '/api/v1/wallets/escrow-key', {
      token,
      body: {
        ciphertext: keep('escrow key ciphertext', randomBytes(96).toString('base64')),
        encryption: {
          kdf: 'PBKDF2',
          hash: 'SHA-256',
          iterations: 600_000,
          salt: randomBytes(16).toString('base64'),
          cipher: 'AES-256-GCM',
          iv: randomBytes(12).toString('base64'),
        },
        ethereum_address: privateKeyToAccount(generatePrivateKey()).address,
      },
    });
    expect(escrowKey.status, JSON.stringify(escrowKey.json)).toBe(200);

    // A request the database refuses: the insert carries the new key's prefix and hash.
    const refused = await call('POST', '/api/v1/api-keys', { token, body: { name: refusedName } });
    expect(refused.status).toBe(500);

    // Sign-ins with wrong passwords, on both APIs.
    for (const [path, wrong] of [
      ['/auth/v1/token?grant_type=password', `Wrong-${randomBytes(9).toString('base64url')}`],
      ['/api/v1/auth/login', `Wrong-${randomBytes(9).toString('base64url')}`],
    ] as const) {
      keep(`wrong password on ${path}`, wrong);
      expect((await call('POST', path, { body: { email, password: wrong } })).status).toBeGreaterThanOrEqual(
        400,
      );
    }

    server.child.kill('SIGTERM');
    await server.exited;
    const log = server.output();

    for (const [what, value] of secrets) expect(log, `the log shows the ${what}`).not.toContain(value);
    // What the run produced but never saw: the refused key and its hash.
    expect(log).not.toMatch(/cov_live_(?!\[redacted\])/);
    expect(log).not.toMatch(/\b[0-9a-f]{64}\b/);
    expect(log).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);

    // The run was logged, its failure included: what failed is there, the values it failed on are not.
    const entries = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; err?: Record<string, unknown> });
    expect(entries.filter((entry) => entry.msg === 'request completed')).toHaveLength(requestsMade);
    const failure = entries.find((entry) => entry.msg === 'request failed');
    expect(failure?.err).toMatchObject({
      type: 'DrizzleQueryError',
      query: expect.stringMatching(/^insert into "api_keys" /),
      params: '[redacted]',
      cause: { code: '23514', constraint: 'api_keys_name_refused_by_test' },
    });
  });
});
