import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { findUnstorableText } from '@covenant/domain';
import { associatedTokenAccount } from '@covenant/escrow/solana';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-test-app.js';
import {
  arbitraryFromJsonSchema,
  arbitraryWithOneHostileField,
  type JsonSchema,
  type SchemaContext,
} from '../testing/arbitrary-from-json-schema.js';
import { createTestTrader, type TestTrader } from '../testing/create-test-trader.js';
import { hostilePathSegments, hostileStrings, hostileValue } from '../testing/hostile-values.js';
import { startTestOpenIdProvider, type TestOpenIdProvider } from '../testing/start-test-openid-provider.js';

/**
 * Schema-driven fuzzing of /api/v1 and /auth/v1: for every operation of the OpenAPI document and
 * every /auth/v1 route of the route table, requests whose parameters, query and body are drawn from
 * the operation's own schemas mixed with hostile values, sent as a signed-in trader, with an API
 * key, as staff and anonymously, against real data (a real deal, real users, a real key). Never a
 * 5xx; every refusal in the documented error shape; no prototype polluted afterwards.
 *
 * Runs are bounded and reproducible: FUZZ_SEED picks the seed (printed), FUZZ_RUNS the runs per
 * operation, FUZZ_ONLY narrows the run to the operations whose name contains it, FUZZ_VERBOSE
 * prints every request and its answer.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20261126);
const runsPerOperation = Number(process.env.FUZZ_RUNS ?? 20);
/** Only the operations whose `METHOD /path` contains this text (to replay one finding). */
const only = process.env.FUZZ_ONLY;
console.info(
  `fuzz-api: seed ${seed}, ${runsPerOperation} runs per operation (FUZZ_SEED, FUZZ_RUNS to change)`,
);

/** A Solana signer: an ed25519 public key's address. */
const solanaSigner = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(9)));

/** A live event stream answers only when it is closed; its parameters are tested in deal-room-events.test.ts. */
const notFuzzed = new Set([
  'GET /api/v1/deals/{id}/events',
  // The live chat's streams: tested in live-chat.test.ts.
  'GET /api/v1/chat/conversation/events',
  'GET /api/v1/staff/chat/events',
]);

/** Body fields the GoTrue-compatible routes read (they are not in the OpenAPI document). */
const authFields: Record<string, JsonSchema> = Object.fromEntries(
  [
    'email',
    'password',
    'phone',
    'refresh_token',
    'token',
    'token_hash',
    'type',
    'redirect_to',
    'code',
    'challenge_id',
    'factor_type',
    'friendly_name',
    'issuer',
    'nonce',
    'current_password',
    'code_challenge',
    'code_challenge_method',
    'auth_code',
    'code_verifier',
  ]
    .map((name) => [name, { type: 'string', maxLength: 60 }] as [string, JsonSchema])
    .concat([
      ['email', { type: 'string', format: 'email' }],
      ['type', { enum: ['signup', 'recovery', 'email_change', 'magiclink', 'invite', 'email', 'totp'] }],
      ['factor_type', { enum: ['totp', 'phone', 'webauthn'] }],
      ['challenge_id', { type: 'string', format: 'uuid' }],
      [
        'data',
        {
          type: 'object',
          properties: {
            first_name: { type: 'string' },
            last_name: { type: 'string' },
            username: { type: 'string' },
          },
        },
      ],
    ]),
);
const authQuery: JsonSchema = {
  type: 'object',
  properties: {
    grant_type: { enum: ['password', 'refresh_token', 'pkce', 'id_token'] },
    redirect_to: { type: 'string' },
    scope: { enum: ['global', 'local', 'others'] },
    token: { type: 'string' },
    type: { enum: ['signup', 'recovery', 'email_change'] },
    provider: { enum: ['google', 'github'] },
    code_challenge: { type: 'string' },
    code_challenge_method: { enum: ['s256', 'S256', 'plain', 'md5'] },
    skip_http_redirect: { enum: ['true', 'false'] },
    state: { type: 'string' },
    code: { type: 'string' },
    error: { type: 'string' },
  },
};

interface Operation {
  method: string;
  /** The path with `{name}` placeholders, as the document writes it. */
  path: string;
  pathParams: string[];
  query: JsonSchema | null;
  body: { schema: JsonSchema; multipart: boolean } | null;
  /** The error shape refusals must have. */
  errors: 'api' | 'gotrue';
}

let database: Database;
let openIdProvider: TestOpenIdProvider;
let testApp: TestApp;
let app: FastifyInstance;
let trader: TestTrader;
let counterparty: TestTrader;
let staff: TestTrader;
let apiKey: string;
/** A real live chat conversation's token, sent to the visitor's chat routes. */
let chatToken: string;
/** The operations whose description or body in the document mentions multipart/form-data. */
let documentedMultipart: string[] = [];
/** Real ids for paths sent broken multipart bodies: the deal, the travel item, the chat conversation. */
const realIds = { deal: '', travelItem: '', conversation: '' };
let context: SchemaContext;
const operations: Operation[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // Google sign-in configured against a real local provider, so /authorize and /callback run in full.
  openIdProvider = await startTestOpenIdProvider({
    redirectUris: ['http://localhost:3000/auth/v1/callback'],
  });
  testApp = await buildTestApp({
    database,
    // The per-user hourly budget would turn most of the run into 429s; the sign-in back-off into sleeps.
    env: {
      API_RATE_LIMIT_STANDARD: '1000000',
      API_RATE_LIMIT_PREMIUM: '1000000',
      GOOGLE_CLIENT_ID: openIdProvider.clientId,
      GOOGLE_CLIENT_SECRET: openIdProvider.clientSecret,
      GOOGLE_ISSUER_URL: openIdProvider.issuer,
    },
    authLimits: { sleep: async () => {} },
  });
  app = testApp.app;
  trader = await createTestTrader(app);
  counterparty = await createTestTrader(app);
  staff = await createTestTrader(app, { roles: ['admin', 'mediator', 'compliance', 'concierge'] });
  const deal = await app.inject({
    method: 'POST',
    url: '/api/v1/deals',
    headers: { authorization: `Bearer ${trader.token}` },
    payload: {
      asset_chain: 'ETH',
      asset_symbol: 'WBTC',
      asset_amount: '50000000',
      stable_chain: 'ETH',
      stable_symbol: 'USDC',
      stable_amount: '30000000000',
      counterparty_id: counterparty.id,
    },
  });
  expect(deal.statusCode, deal.body).toBe(201);
  // A travel item of the deal, so item paths reach their handlers (written directly: the deal needs no meeting).
  const [travelItem] = await database.db
    .insert(schema.travelItems)
    .values({
      dealId: deal.json().id,
      kind: 'hotel',
      traveller: 'buyer',
      details: 'fuzz',
      requestedBy: trader.id,
    })
    .returning();
  // A sheet each, so GET /partners/matches ranks the counterparty rather than asking for a sheet.
  for (const owner of [trader, counterparty]) {
    const sheet = await app.inject({
      method: 'POST',
      url: '/api/v1/cis',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        legal_name: 'Fuzz Holdings',
        entity_type: 'company',
        jurisdiction: 'CH',
        source_of_funds: 'Retained trading profits',
        assets: ['WBTC', 'USDC'],
        size_min_usd: 1_000,
        size_max_usd: 100_000,
        preferred_chains: ['ETH'],
        settlement_window_hours: 24,
      },
    });
    expect(sheet.statusCode, sheet.body).toBe(201);
  }
  const key = await app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: { authorization: `Bearer ${trader.token}` },
    payload: { name: 'fuzz' },
  });
  expect(key.statusCode, key.body).toBe(201);
  apiKey = key.json().key;
  const chat = await app.inject({
    method: 'POST',
    url: '/api/v1/chat/conversations',
    payload: { email: 'fuzz-visitor@example.com', body: 'A fuzzing visitor' },
  });
  expect(chat.statusCode, chat.body).toBe(201);
  chatToken = chat.json().token;
  Object.assign(realIds, {
    deal: deal.json().id,
    travelItem: travelItem!.id,
    conversation: chat.json().conversation.id,
  });
  const document = (
    await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
  ).json() as OpenApiDocument;
  documentedMultipart = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => JSON.stringify(operation).includes('multipart/form-data'))
      .map(([method]) => `${method.toUpperCase()} /api/v1${path}`),
  );
  context = {
    components: document.components?.schemas ?? {},
    // The deal first and thrice: most paths take a deal id.
    knownIds: [
      deal.json().id,
      deal.json().id,
      deal.json().id,
      trader.id,
      counterparty.id,
      staff.id,
      key.json().id,
      travelItem!.id,
      chat.json().conversation.id,
    ],
    hostility: 0.12,
    hints: {
      asset_amount: fc.constantFrom('50000000', '1', '100000000000000'),
      stable_amount: fc.constantFrom('30000000000', '1000000', '1'),
      asset_chain: fc.constant('ETH'),
      stable_chain: fc.constant('ETH'),
      asset_symbol: fc.constantFrom('ETH', 'WBTC', 'USDC'),
      stable_symbol: fc.constantFrom('USDC', 'USDT'),
      counterparty_id: fc.constant(counterparty.id),
      payout_address: fc.constant('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'),
      refund_address: fc.constant('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'),
      // A signer on Ethereum, or on Solana (an ed25519 key's address, and an off-curve one that no
      // key signs for): wallets/connect and escrow/fund take either chain.
      address: fc.constantFrom(
        '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
        solanaSigner,
        // Its associated token account for USDC (mainnet mint): a program-derived address, off the curve.
        await associatedTokenAccount(solanaSigner, 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'),
      ),
      chain: fc.constantFrom('ETH', 'ETH', 'SOL'),
      // An escrow approval: Ethereum's 65 bytes, or a Solana ed25519 signature in base58 or hex.
      signature: fc.constantFrom(
        `0x${'1b'.repeat(65)}`,
        base58.encode(new Uint8Array(64).fill(3)),
        'ab'.repeat(64),
        `0x${'cd'.repeat(64)}`,
      ),
      url: fc.constantFrom('https://example.com/hook', 'http://127.0.0.1/hook'),
      email: fc.constantFrom(trader.email, 'fuzz@example.com'),
      password: fc.constant('correct horse battery staple'),
      reason: fc.constant('The counterparty stopped answering for a week, so we stop here.'),
      rationale: fc.constant('Both parties agreed in the deal room to unwind the trade in full.'),
      body: fc.constant('A message long enough to pass every minimum length check.'),
      version: fc.constant(1),
      details: fc.constant('Two nights near the meeting place, arriving on the first day.'),
      provider: fc.constant('Hotel Baur au Lac'),
      description: fc.constant('Two nights, double room, breakfast included'),
      amount: fc.constantFrom('980000000', '1', '0', '12.5'),
      payee_address: fc.constant('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'),
    },
  };
  operations.push(...documentedOperations(document), ...authOperations(app));
});

afterAll(async () => {
  await testApp?.close();
  await database?.close();
  await openIdProvider?.close();
});

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** Every operation of the OpenAPI document: its path and query parameters and its body schema. */
function documentedOperations(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
      const content = operation.requestBody?.content ?? {};
      const json = content['application/json']?.schema;
      const multipart = content['multipart/form-data']?.schema;
      return {
        method: method.toUpperCase(),
        path: `/api/v1${path}`,
        pathParams: parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name),
        query:
          queryParameters.length === 0
            ? null
            : {
                type: 'object',
                properties: Object.fromEntries(queryParameters.map((p) => [p.name, p.schema ?? {}])),
                required: queryParameters.filter((p) => p.required).map((p) => p.name),
              },
        body: (json ?? multipart) ? { schema: (json ?? multipart)!, multipart: !json } : null,
        errors: 'api' as const,
      };
    }),
  );
}

/**
 * The /auth/v1 routes from the route table itself (they are GoTrue's API, not in the document), so a
 * new one is fuzzed without anybody listing it.
 */
function authOperations(fastify: FastifyInstance): Operation[] {
  return routeTable(fastify)
    .filter((route) => route.path.startsWith('/auth/v1/') && route.method !== 'HEAD')
    .map((route) => {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      return {
        method: route.method,
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!),
        query: authQuery,
        body: ['POST', 'PUT'].includes(route.method)
          ? { schema: { type: 'object', properties: authFields }, multipart: false }
          : null,
        errors: 'gotrue' as const,
      };
    });
}

/** Fastify's route table, read from `printRoutes` (the one public listing of every route). */
function routeTable(fastify: FastifyInstance): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = [];
  const stack: Array<{ indent: number; path: string }> = [];
  for (const line of fastify.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop();
    const path = `${stack.at(-1)?.path ?? ''}${match[2]}`;
    stack.push({ indent, path });
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, path });
  }
  return routes;
}

type Caller = 'trader' | 'api key' | 'staff' | 'anonymous';

interface FuzzRequest {
  caller: Caller;
  pathValues: string[];
  query: string;
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string | null } | null;
}

function requestArbitrary(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const segment = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...context.knownIds) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: fc.constantFrom(...hostilePathSegments) },
    { weight: 1, arbitrary: fc.constantFrom(...hostileStrings.slice(0, 20)).map(encodeText) },
    { weight: 1, arbitrary: fc.constantFrom('buyer', 'seller', 'asset', 'stable') },
  );
  const query = operation.query
    ? fc.oneof(
        {
          weight: 2,
          arbitrary: arbitraryFromJsonSchema(operation.query, { ...context, valid: true }).map(toQueryString),
        },
        { weight: 3, arbitrary: arbitraryFromJsonSchema(operation.query, context).map(toQueryString) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '?%00=%00',
            '?limit=%ED%A0%80',
            '?__proto__[polluted]=1',
            '?a=1&a=2&a=3',
            '?%',
          ),
        },
      )
    : fc.constantFrom('', '', '?unexpected=%00', '?__proto__=x');
  return fc.record({
    // Mostly callers the operation serves, so requests get past authorization to validation and the handler.
    caller: operation.path.includes('/staff/')
      ? fc.constantFrom<Caller>('staff', 'staff', 'staff', 'staff', 'trader', 'api key', 'anonymous')
      : fc.constantFrom<Caller>(
          'trader',
          'trader',
          'trader',
          'trader',
          'api key',
          'api key',
          'staff',
          'anonymous',
        ),
    pathValues: fc.array(segment, {
      minLength: operation.pathParams.length,
      maxLength: operation.pathParams.length,
    }),
    query,
    body: bodyArbitrary(operation),
  });
}

function bodyArbitrary(operation: Operation): fc.Arbitrary<FuzzRequest['body']> {
  const raw = fc.constantFrom<FuzzRequest['body']>(
    { kind: 'raw', text: '{"unterminated": ', contentType: 'application/json' },
    { kind: 'raw', text: '{"a":"\\ud800"}', contentType: 'application/json' },
    { kind: 'raw', text: '{"a":"\\u0000"}', contentType: 'application/json' },
    { kind: 'raw', text: '{"__proto__":{"polluted":"yes"}}', contentType: 'application/json' },
    {
      kind: 'raw',
      text: '{"constructor":{"prototype":{"polluted":"yes"}}}',
      contentType: 'application/json',
    },
    {
      kind: 'raw',
      text: `{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
      contentType: 'application/json',
    },
    { kind: 'raw', text: 'plain text', contentType: 'text/plain' },
    { kind: 'raw', text: '<xml/>', contentType: 'application/xml' },
    { kind: 'raw', text: '{"a":1}', contentType: null },
    { kind: 'raw', text: '', contentType: 'application/json' },
    { kind: 'raw', text: 'null', contentType: 'application/json' },
    { kind: 'raw', text: '[]', contentType: 'application/json' },
    { kind: 'raw', text: '"just a string"', contentType: 'application/json' },
    {
      kind: 'raw',
      text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u0000\r\n--x--\r\n',
      contentType: 'multipart/form-data; boundary=x',
    },
    ...brokenMultipartBodies('file').map((broken): FuzzRequest['body'] => ({
      kind: 'raw',
      text: broken.text,
      contentType: broken.contentType,
    })),
  );
  if (!operation.body)
    return fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: raw });
  // Three kinds of body: valid throughout (reaches the handler), valid but for one hostile field,
  // and hostile at any level.
  const schemaValue = fc.oneof(
    arbitraryFromJsonSchema(operation.body.schema, { ...context, valid: true }),
    arbitraryWithOneHostileField(operation.body.schema, context),
    arbitraryFromJsonSchema(operation.body.schema, context),
  );
  const shaped = operation.body.multipart
    ? schemaValue.map((value): FuzzRequest['body'] => ({
        kind: 'raw',
        text: toMultipart(value),
        contentType: `multipart/form-data; boundary=${multipartBoundary}`,
      }))
    : schemaValue.map((value): FuzzRequest['body'] => ({ kind: 'json', value }));
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    { weight: 1, arbitrary: raw },
    { weight: 1, arbitrary: hostileValue().map((value): FuzzRequest['body'] => ({ kind: 'json', value })) },
  );
}

function toQueryString(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `?q=${encodeQueryValue(value)}`;
  const pairs = Object.entries(value).flatMap(([key, item]) =>
    (Array.isArray(item) ? item : [item]).map((one) => `${encodeURIComponent(key)}=${encodeQueryValue(one)}`),
  );
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function encodeQueryValue(value: unknown): string {
  return encodeText(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
}

/** Percent-encoded; a lone surrogate cannot be, so it is sent as the bytes a broken client would send. */
function encodeText(text: string): string {
  return findUnstorableText(text) === 'unpaired surrogate'
    ? '%ED%A0%80'
    : encodeURIComponent(text.slice(0, 10_000));
}

const multipartBoundary = 'fuzz-boundary-7MA4YWxk';

/**
 * Multipart bodies the parser cannot finish, with the file in `fileField`: cut off before the
 * closing boundary, cut off inside the file, and a content type without its boundary. Each is the
 * client's fault: a 4xx, never a 500.
 */
function brokenMultipartBodies(
  fileField: string,
): Array<{ name: string; text: string; contentType: string }> {
  const contentType = `multipart/form-data; boundary=${multipartBoundary}`;
  const text = `--${multipartBoundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nA message long enough to pass every minimum length check.\r\n`;
  const file = `--${multipartBoundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`;
  return [
    { name: 'a body cut off before its closing boundary', text, contentType },
    { name: 'a body cut off inside its file', text: `${text}${file}`, contentType },
    {
      name: 'a content type without a boundary',
      text: `${text}${file}\r\n--${multipartBoundary}--\r\n`,
      contentType: 'multipart/form-data',
    },
  ];
}

function toMultipart(value: unknown): string {
  const fields =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value)
      : [['value', value]];
  const parts = fields.flatMap(([name, item]) =>
    (Array.isArray(item) ? item : [item]).map(
      (one) =>
        `--${multipartBoundary}\r\nContent-Disposition: form-data; name="${String(name).replace(/["\r\n]/g, '_')}"\r\n\r\n${typeof one === 'string' ? one : JSON.stringify(one)}\r\n`,
    ),
  );
  const file = `--${multipartBoundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n\u0000\u00ff garbage\r\n`;
  return `${parts.join('')}${file}--${multipartBoundary}--\r\n`;
}

function injectOptions(operation: Operation, request: FuzzRequest): InjectOptions {
  let url = operation.path;
  operation.pathParams.forEach((name, index) => {
    url = url.replace(`{${name}}`, request.pathValues[index] ?? '');
  });
  const headers: Record<string, string> = {};
  const token = { trader: trader.token, 'api key': apiKey, staff: staff.token, anonymous: null }[
    request.caller
  ];
  if (token) headers.authorization = `Bearer ${token}`;
  if (/^\/api\/v1\/chat\/conversation(\/|$)/.test(operation.path)) headers['x-chat-token'] = chatToken;
  const options: InjectOptions = {
    method: operation.method as InjectOptions['method'],
    url: `${url}${request.query}`,
    headers,
  };
  if (request.body?.kind === 'json') {
    headers['content-type'] = 'application/json';
    options.payload = JSON.stringify(request.body.value) ?? 'null';
  } else if (request.body?.kind === 'raw') {
    if (request.body.contentType) headers['content-type'] = request.body.contentType;
    options.payload = request.body.text;
  }
  return options;
}

/** The API's error object (spec §8), or GoTrue's under /auth/v1. */
function expectDocumentedError(
  operation: Operation,
  response: LightMyRequestResponse,
  summary: string,
): void {
  const body = response.json();
  if (operation.errors === 'api' || response.headers['content-type']?.toString().includes('json') === false) {
    expect(body, summary).toEqual({
      error: {
        code: expect.any(String),
        message: expect.any(String),
        details: body?.error?.details === null ? null : expect.any(Object),
        timestamp: expect.any(String),
      },
    });
    return;
  }
  expect(body, summary).toMatchObject({
    code: expect.any(String),
    error_code: expect.any(String),
    msg: expect.any(String),
    message: expect.any(String),
  });
}

describe('fuzzing every operation from its schemas', () => {
  it('enumerates the documented /api/v1 operations and the /auth/v1 routes', () => {
    const names = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(names).toContain('POST /api/v1/api-keys');
    expect(names).toContain('POST /api/v1/deals/{id}/cancel');
    expect(names).toContain('POST /auth/v1/signup');
    expect(names).toContain('DELETE /auth/v1/factors/{id}');
    expect(names).toContain('GET /auth/v1/authorize');
    expect(names).toContain('GET /auth/v1/callback');
    expect(operations.length).toBeGreaterThan(85);
  });

  it('never answers 5xx, always in the documented error shape, and pollutes no prototype', async () => {
    const failures: string[] = [];
    /** Answers by status class per operation: a run that never got past validation would prove little. */
    const answered = new Map<string, Set<number>>();
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      if (notFuzzed.has(name) || (only && !name.includes(only))) continue;
      const details = await fc.check(
        fc.asyncProperty(requestArbitrary(operation), async (request) => {
          const options = injectOptions(operation, request);
          const response = await app.inject(options);
          answered.set(name, (answered.get(name) ?? new Set()).add(Math.floor(response.statusCode / 100)));
          const summary = `${request.caller}: ${options.method} ${String(options.url).slice(0, 200)} ${String(options.payload ?? '').slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          if (process.env.FUZZ_VERBOSE) console.info(summary.slice(0, 400));
          expect(response.statusCode, summary).toBeLessThan(500);
          if (response.statusCode >= 400) expectDocumentedError(operation, response, summary);
          expect(({} as Record<string, unknown>).polluted, summary).toBeUndefined();
        }),
        { seed, numRuns: runsPerOperation, endOnFailure: true },
      );
      if (details.failed) {
        const error = details.errorInstance as Error | undefined;
        if (only) console.error(error?.stack, details.counterexample);
        failures.push(
          `${name} (run ${details.numRuns}): ${error?.message?.split('\n')[0] ?? String(details.errorInstance)}`,
        );
      }
    }
    const succeeded = [...answered].filter(([, classes]) => classes.has(2)).map(([name]) => name);
    console.info(
      `fuzz-api: ${answered.size} operations fuzzed, ${succeeded.length} of them also answered 2xx`,
    );
    if (process.env.FUZZ_VERBOSE) {
      const refusedOnly = [...answered].filter(([, classes]) => !classes.has(2));
      console.info(
        `fuzz-api: never 2xx: ${refusedOnly.map(([name, classes]) => `${name} [${[...classes]}xx]`).join(', ')}`,
      );
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
    // The generated requests reach the handlers behind validation, not only the refusals before them.
    expect(succeeded.length).toBeGreaterThan(answered.size / 3);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Array.prototype).not.toHaveProperty('polluted');
  }, 600_000);

  it('answers every multipart route 400 for a truncated body and for a content type without a boundary', async () => {
    const names = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(names).toEqual(expect.arrayContaining(Object.keys(multipartRoutes)));
    // A route documented as multipart must be in the list (most read the form in the handler and
    // document no body schema, so the document alone cannot name them all).
    expect(Object.keys(multipartRoutes)).toEqual(expect.arrayContaining(documentedMultipart));
    // Callers and a conversation of their own: the fuzzing above may have signed the shared
    // sessions out and closed the shared conversation.
    const sender = await createTestTrader(app);
    const staffSender = await createTestTrader(app, { roles: ['admin', 'concierge'] });
    const chat = await app.inject({
      method: 'POST',
      url: '/api/v1/chat/conversations',
      payload: { email: 'fuzz-multipart@example.com', body: 'A visitor sending broken forms' },
    });
    expect(chat.statusCode, chat.body).toBe(201);
    const failures: string[] = [];
    for (const [name, fileField] of Object.entries(multipartRoutes)) {
      const operation = operations.find((candidate) => `${candidate.method} ${candidate.path}` === name)!;
      for (const broken of brokenMultipartBodies(fileField)) {
        // The caller each route serves and real ids, so the request gets as far as reading the form.
        const options = injectOptions(operation, {
          caller: 'anonymous',
          pathValues: operation.pathParams.map((param) => realPathValue(operation.path, param)),
          query: '',
          body: { kind: 'raw', text: broken.text, contentType: broken.contentType },
        });
        const caller = operation.path.includes('/staff/') ? staffSender : sender;
        const visitor = operation.path.startsWith('/api/v1/chat/conversation/');
        options.headers = visitor
          ? { ...options.headers, 'x-chat-token': chat.json().token }
          : { ...options.headers, authorization: `Bearer ${caller.token}` };
        // A network of its own: the fuzzing above spent this one's hourly chat files (counted before
        // a form is read), which would answer 429 before the form is looked at.
        if (visitor) options.remoteAddress = '2001:db8:f022::1';
        const response = await app.inject(options);
        const summary = `${name} with ${broken.name} → ${response.statusCode} ${response.body.slice(0, 300)}`;
        if (response.statusCode !== 400 || response.json().error?.code !== 'VALIDATION_FAILED') {
          failures.push(summary);
        }
        expectDocumentedError(operation, response, summary);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });
});

/** Every route that reads a multipart form, with the field its files go in. */
const multipartRoutes: Record<string, string> = {
  'POST /api/v1/chat/conversation/attachments': 'file',
  'POST /api/v1/cis': 'file',
  'POST /api/v1/deals/{id}/disputes': 'evidence',
  'POST /api/v1/deals/{id}/disputes/{dispute_id}/evidence': 'evidence',
  'POST /api/v1/kyc': 'documents',
  'POST /api/v1/staff/chat/conversations/{id}/attachments': 'file',
  'POST /api/v1/staff/travel/{item_id}/file': 'file',
};

/** A real id for a path parameter: the travel item, the chat conversation, or the deal. */
function realPathValue(path: string, name: string): string {
  if (name === 'item_id') return realIds.travelItem;
  if (name === 'id' && path.includes('/chat/')) return realIds.conversation;
  if (name === 'id') return realIds.deal;
  // Any other id (a dispute's, a key's) names nothing: the multipart routes read the form first.
  return '00000000-0000-4000-8000-000000000000';
}
