// The baseline for api-deals.bench.ts: node:http + pg with no framework, sending exactly the
// statements GET and POST /api/v1/deals send (copied from our server's statement log, named where
// ours are named), in the same order and the same transaction, so the ratio measures our overhead
// and nothing else. What it leaves out is what the framework and the app do in JavaScript: routing,
// token verification (its result is cached by ours), validation, the trading rules, presenting the
// deal. It still computes the audit entry's hash, since that is part of the entry it writes.
// GET /list-only sends the list query alone (the baseline before the statements were matched).
// POST /sign-in is a password sign-in with the statements ours sends (the address's count, the user
// with their account summary, then the session), the same argon2id verification and two ES256
// tokens signed with node:crypto as ours are; what it leaves out is again the framework and the app's own work.
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { genesisHash, hashAuditEntry } from '@covenant/domain';
import { verify } from '@node-rs/argon2';
import pg from 'pg';
import { signCompactJwt } from '../apps/server/src/auth/sign-compact-jwt.js';
import { statements } from './deal-statements.js';
import { signInStatements } from './sign-in-statements.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const userId = process.env.BENCH_USER_ID!;
const sellerId = process.env.BENCH_SELLER_ID!;
const sessionId = process.env.BENCH_SESSION_ID!;
const rateLimitKey = `api:user:${userId}`;
const hourMs = 3_600_000;

type Statement = { name?: string; text: string };
type Runner = Pick<pg.PoolClient, 'query'>;
const run = (on: Runner, statement: Statement, values: unknown[]) =>
  on.query({ ...statement, values } as pg.QueryConfig);

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** What every authenticated request of ours sends first, side by side: the session check and the count. */
function sessionAndCount() {
  const now = new Date();
  return Promise.all([
    run(pool, statements.sessionCaller, [sessionId, userId]),
    run(pool, statements.rateLimit, [
      rateLimitKey,
      1,
      new Date(now.getTime() + hourMs).toISOString(),
      now.toISOString(),
      now.toISOString(),
    ]),
  ]);
}

async function list(): Promise<unknown> {
  const { rows } = await run(pool, statements.listFirstPage, ['buyer', 'seller', userId, 21, userId, 21, 21]);
  return { data: rows.slice(0, 20), has_more: rows.length > 20 };
}

async function create(body: Record<string, string>): Promise<unknown> {
  await sessionAndCount();
  await run(pool, statements.traderProfiles, [userId, sellerId]);
  const now = new Date();
  const client = await pool.connect();
  let deal: Record<string, unknown>;
  try {
    await client.query('begin');
    const { rows } = await run(client, statements.insertDeal, [
      userId,
      sellerId,
      body.asset_chain,
      body.asset_symbol,
      body.asset_amount,
      body.stable_chain,
      body.stable_symbol,
      body.stable_amount,
      false,
      null,
      null,
      'draft',
      now,
      now,
    ]);
    deal = rows[0];
    const dealId = deal.id as string;
    const terms = {
      asset_chain: body.asset_chain!,
      asset_symbol: body.asset_symbol!,
      asset_amount: body.asset_amount!,
      stable_chain: body.stable_chain!,
      stable_symbol: body.stable_symbol!,
      stable_amount: body.stable_amount!,
      meeting_required: false,
      travel_location: null,
      funding_deadline_hours: deal.funding_deadline_hours as number,
    };
    await run(client, statements.insertTermsVersion, [dealId, 1, userId, JSON.stringify(terms), now]);
    const last = await run(client, statements.lastAuditEntry, [dealId, 1]);
    const seq = (last.rows[0]?.seq ?? 0) + 1;
    const prevHash = last.rows[0]?.hash ?? genesisHash;
    const payload = { buyer_id: userId, seller_id: sellerId, version: 1, terms };
    const hash = hashAuditEntry(prevHash, {
      deal_id: dealId,
      seq,
      actor_id: userId,
      action: 'created',
      payload,
      created_at: now.toISOString(),
    });
    const payloadJson = JSON.stringify(payload);
    await run(client, statements.insertAuditEntry, [
      dealId,
      seq,
      userId,
      'created',
      payloadJson,
      now,
      prevHash,
      hash,
    ]);
    await run(client, statements.insertHistory, [dealId, dealId, 'created', userId, payloadJson, now]);
    await run(client, statements.insertNotifications, [
      'created',
      'New deal proposed',
      'A buyer opened a deal with you. Attach your Customer Information Sheet to begin.',
      now.toISOString(),
      dealId,
      userId,
    ]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
  await run(pool, statements.webhookEndpoints, [userId, sellerId]);
  return deal;
}

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** A compact ES256 JWT of `claims`, signed on the spot as ours are. */
const signToken = (type: string, claims: Record<string, unknown>) =>
  signCompactJwt(privateKey, { alg: 'ES256', kid: 'bench', typ: type }, claims);

async function signIn(
  body: { email: string; password: string },
  address: string,
  userAgent: string | undefined,
): Promise<{ status: number; body: unknown; cookie?: string }> {
  const now = new Date();
  await run(pool, statements.rateLimit, [
    `api:ip:${address}`,
    1,
    new Date(now.getTime() + hourMs).toISOString(),
    now.toISOString(),
    now.toISOString(),
  ]);
  const { rows } = await run(pool, signInStatements.userAccountByEmail, [body.email]);
  const user = rows[0] as { id: string; email: string; password_hash: string } | undefined;
  if (!user || !(await verify(user.password_hash, body.password))) {
    return { status: 400, body: { error: 'invalid_credentials' } };
  }
  const at = new Date();
  const seconds = Math.floor(at.getTime() / 1000);
  const amr = [{ method: 'password', timestamp: seconds }];
  const refreshToken = randomBytes(32).toString('base64url');
  const session = await run(pool, signInStatements.startSession, [
    user.id,
    JSON.stringify(amr),
    address,
    userAgent ?? null,
    at.toISOString(),
    createHash('sha256').update(refreshToken).digest('hex'),
    at.toISOString(),
    at.toISOString(),
    user.id,
  ]);
  const accessToken = signToken('JWT', {
    email: user.email,
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {},
    role: 'authenticated',
    aal: 'aal1',
    amr,
    session_id: session.rows[0].id,
    is_anonymous: false,
    iss: 'http://127.0.0.1/auth/v1',
    aud: 'authenticated',
    sub: user.id,
    iat: seconds,
    exp: seconds + 3600,
  });
  const deviceToken = signToken('device+jwt', {
    iss: 'http://127.0.0.1/auth/v1',
    aud: 'known-device',
    sub: user.id,
    jti: randomUUID(),
    iat: seconds,
    exp: seconds + 180 * 24 * 3600,
  });
  return {
    status: 200,
    body: {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: 3600,
      expires_at: seconds + 3600,
      token_type: 'bearer',
    },
    cookie: `covenant-device-${user.id.slice(0, 16)}=${deviceToken}; Max-Age=15552000; Path=/; HttpOnly; SameSite=Strict`,
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

const server = createServer((request, response) => {
  const failed = (error: Error) => answer(response, 500, { error: error.message });
  if (request.method === 'GET' && request.url === '/list-only') {
    list().then((body) => answer(response, 200, body), failed);
  } else if (request.method === 'GET') {
    sessionAndCount()
      .then(list)
      .then((body) => answer(response, 200, body), failed);
  } else if (request.url === '/sign-in') {
    readBody(request)
      .then((text) => signIn(JSON.parse(text), request.socket.remoteAddress!, request.headers['user-agent']))
      .then((result) => {
        if (result.cookie) response.setHeader('set-cookie', result.cookie);
        answer(response, result.status, result.body);
      }, failed);
  } else {
    readBody(request)
      .then((text) => create(JSON.parse(text)))
      .then((body) => answer(response, 201, body), failed);
  }
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
