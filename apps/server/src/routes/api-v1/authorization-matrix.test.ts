import { randomUUID } from 'node:crypto';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../../api/access.js';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

// The authorization matrix (ADR 013): every operation of the OpenAPI document × every kind of caller.
// The table `operations` pins each operation's access, which the document's `x-access` must match (a
// loosened declaration fails here), and the exceptions of the operation; the expected answer of each
// cell follows from them by one rule (`expected` below). An operation of the document missing from
// the table fails the suite, so a new route cannot go unchecked. Allowed callers must
// get past authorization (no 401, no 403, no 404 unless the operation declares why); refused ones
// get exactly the refusal, and no refused body carries anything of the owner's.

type CallerName =
  | 'anonymous'
  | 'owner'
  | 'otherTrader'
  | 'unverified'
  | 'mediator'
  | 'mediatorAal1'
  | 'compliance'
  | 'complianceAal1'
  | 'admin'
  | 'adminAal1'
  | 'concierge'
  | 'conciergeAal1'
  | 'readKey'
  | 'tradeKey';

const callerNames: CallerName[] = [
  'anonymous',
  'otherTrader',
  'unverified',
  'mediator',
  'mediatorAal1',
  'compliance',
  'complianceAal1',
  'admin',
  'adminAal1',
  'concierge',
  'conciergeAal1',
  'readKey',
  'tradeKey',
  'owner',
];

interface OperationRule {
  /** The access the operation must declare (`x-access`): a changed declaration fails here first. */
  access: Access;
  /** Staff operations: the roles the route admits (each with a second factor). */
  roles?: schema.UserRole[];
  /** The owner's resource is named in the body (`deal_id`), not the path: strangers get 404. */
  ownedInBody?: true;
  /** Why allowed callers may get 404: the resource the path names does not exist in this test. */
  absent?: string;
  /** A body that passes validation, so the call reaches the ownership check. Default `{}`. */
  body?: () => Record<string, unknown>;
  /**
   * Other bodies the operation takes (another chain's form of the same request): each caller is
   * called with each of them too and must get the same answer.
   */
  otherBodies?: Array<() => Record<string, unknown>>;
  /** Sent as multipart/form-data (the route reads nothing else). */
  multipart?: true;
  /** A live stream: read its head only. */
  stream?: true;
  /** A live chat visitor's route: the owner's conversation token goes along (X-Chat-Token), whoever calls. */
  chatToken?: true;
  /** Callers the rule would refuse whom the route admits, with why. */
  alsoAllowed?: { callers: CallerName[]; why: string };
  /** Callers refused otherwise than the rule says, with the refusal and why. */
  refusedOtherwise?: { callers: CallerName[]; status: number; code: string; why: string };
}

const checksummedEth = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** A fresh ed25519 key's address, as a Solana API user registers it. */
const solanaSigner = () => base58.encode(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
const deal = () => ids.deal!;
const dealTerms = {
  asset_chain: 'ETH',
  asset_symbol: 'WBTC',
  asset_amount: '100000000',
  stable_chain: 'ETH',
  stable_symbol: 'USDT',
  stable_amount: '60000000000',
};
const mediatorOfDispute = {
  callers: ['mediator'] as CallerName[],
  why: 'a mediator sits in the deal room of a disputed deal (the owner’s deal has a dispute)',
};
const mediatorSeatNeedsAal2 = {
  callers: ['mediatorAal1'] as CallerName[],
  status: 403,
  code: 'FORBIDDEN',
  why: 'a mediator’s seat in a disputed deal’s room is checked as staff, so aal1 is asked for a second factor',
};

/** Every operation of /api/v1, by "METHOD path" as the OpenAPI document names it. */
const operations: Record<string, OperationRule> = {
  // Public.
  'POST /auth/login': { access: 'public' },
  'POST /auth/refresh': { access: 'public' },
  'POST /support/contact': { access: 'public' },
  'POST /support/tickets': { access: 'public' },
  'GET /chains': { access: 'public' },
  // The live chat's visitor side: the conversation token is the credential, whatever Bearer token comes
  // with it (live-chat.test.ts shows another token reaches nothing).
  'GET /chat/status': { access: 'public' },
  'POST /chat/conversations': {
    access: 'public',
    body: () => ({ email: 'matrix@example.com', body: 'Matrix chat' }),
  },
  'GET /chat/conversation': { access: 'public', chatToken: true },
  'POST /chat/conversation/messages': {
    access: 'public',
    chatToken: true,
    body: () => ({ body: 'From the authorization matrix' }),
  },
  'GET /chat/conversation/events': { access: 'public', chatToken: true, stream: true },
  // The matrix's form carries its file as `evidence`: past the token, refused as a 400 (no `file`).
  'POST /chat/conversation/attachments': { access: 'public', chatToken: true, multipart: true },
  'GET /chat/conversation/attachments/{id}': {
    access: 'public',
    chatToken: true,
    absent: 'no file in the owner’s conversation',
  },
  // The caller's own collections.
  'GET /deals': { access: 'read' },
  'POST /deals': {
    access: 'trade',
    body: () => ({ ...dealTerms, counterparty_id: ids.seller! }),
    refusedOtherwise: {
      callers: ['unverified'],
      status: 403,
      code: 'KYC_REQUIRED',
      why: 'only verified traders with KYC complete open deals',
    },
  },
  'GET /notifications': { access: 'read' },
  'POST /notifications/read-all': { access: 'trade' },
  'GET /cis': { access: 'read' },
  'POST /cis': { access: 'trade' },
  'GET /kyc': { access: 'session' },
  'POST /kyc': { access: 'session' },
  'GET /partners': { access: 'read' },
  'GET /partners/matches': { access: 'read' },
  'GET /user/profile': { access: 'read' },
  'PATCH /user/profile': { access: 'session', body: () => ({ matching_opt_out: false }) },
  'GET /wallets/balance': { access: 'read' },
  'POST /wallets/connect': {
    access: 'sensitive',
    // A Solana signer: an ed25519 public key (base58) the caller holds.
    otherBodies: [() => ({ chain: 'SOL', address: solanaSigner() })],
  },
  'GET /wallets/escrow-key': { access: 'session', absent: 'only the owner has stored an escrow key' },
  'PUT /wallets/escrow-key': { access: 'sensitive' },
  'GET /api-keys': { access: 'session' },
  'POST /api-keys': { access: 'sensitive' },
  'GET /webhooks': { access: 'read' },
  'POST /webhooks': { access: 'sensitive' },
  // The owner's deal, named in the body.
  'POST /escrow/create': { access: 'trade', ownedInBody: true, body: () => ({ deal_id: deal() }) },
  'POST /escrow/fund': {
    access: 'trade',
    ownedInBody: true,
    absent: 'the deal has no escrow',
    body: () => ({ deal_id: deal(), transaction_hash: `0x${'ab'.repeat(32)}`, chain: 'ETH', amount: '1' }),
  },
  'POST /escrow/release': {
    access: 'trade',
    ownedInBody: true,
    absent: 'the deal has no escrow',
    body: () => ({ deal_id: deal(), leg: 'asset', signature: `0x${'11'.repeat(65)}` }),
    // A Solana leg's approval: a 64-byte ed25519 signature in base58, or in hex.
    otherBodies: [
      () => ({ deal_id: deal(), leg: 'asset', signature: base58.encode(new Uint8Array(64).fill(7)) }),
      () => ({ deal_id: deal(), leg: 'stable', signature: '22'.repeat(64) }),
      // The documented alias: an escrow and the caller's side (no escrow has this id here).
      () => ({ escrow_id: randomUUID(), side: 'seller', signature: `0x${'11'.repeat(65)}` }),
    ],
  },
  // The owner's resources, named in the path.
  'GET /deals/{id}': { access: 'read' },
  'GET /deals/{id}/terms': { access: 'read' },
  'PUT /deals/{id}/terms': {
    access: 'trade',
    body: () => ({
      asset_chain: 'ETH',
      asset_symbol: 'WBTC',
      asset_amount: '100000001',
      stable_chain: 'ETH',
      stable_symbol: 'USDT',
      stable_amount: '60000000000',
    }),
  },
  'POST /deals/{id}/terms/accept': { access: 'trade', body: () => ({ version: 1 }) },
  'PUT /deals/{id}/addresses': {
    access: 'trade',
    body: () => ({ payout_address: checksummedEth, refund_address: checksummedEth }),
  },
  'POST /deals/{id}/cancel': { access: 'trade', body: () => ({ reason: 'authorization matrix' }) },
  'GET /deals/{id}/audit': { access: 'read' },
  'GET /deals/{id}/audit/export': { access: 'read' },
  'GET /deals/{id}/events': {
    access: 'read',
    stream: true,
    alsoAllowed: mediatorOfDispute,
    refusedOtherwise: mediatorSeatNeedsAal2,
  },
  'GET /deals/{id}/messages': {
    access: 'read',
    alsoAllowed: mediatorOfDispute,
    refusedOtherwise: mediatorSeatNeedsAal2,
  },
  'POST /deals/{id}/messages': {
    access: 'trade',
    body: () => ({ body: 'from the authorization matrix' }),
    alsoAllowed: mediatorOfDispute,
    refusedOtherwise: mediatorSeatNeedsAal2,
  },
  'GET /deals/{id}/escrow': { access: 'read', absent: 'the deal has no escrow' },
  'GET /deals/{id}/meeting': { access: 'session' },
  'GET /deals/{id}/meeting/qr': { access: 'trade' },
  'POST /deals/{id}/meeting/check-in': { access: 'trade', body: () => ({ token: 'AAAA-AAAA' }) },
  'POST /deals/{id}/meeting/waive': { access: 'trade' },
  'POST /deals/{id}/meeting/change': {
    access: 'trade',
    body: () => ({
      meeting: {
        location: 'Geneva',
        latitude: '46.2075',
        longitude: '6.1453',
        starts_on: '2099-01-01',
        duration: '1-2',
        travel_paid_by: 'split',
      },
    }),
  },
  'POST /deals/{id}/meeting/change/accept': { access: 'trade' },
  'GET /deals/{id}/cis': { access: 'read' },
  'POST /deals/{id}/cis': { access: 'trade', body: () => ({ cis_id: ids.cis! }) },
  'POST /deals/{id}/cis/approve': { access: 'trade', body: () => ({ cis_id: ids.cis! }) },
  'POST /deals/{id}/cis/reject': {
    access: 'trade',
    body: () => ({ cis_id: ids.cis!, comment: 'authorization matrix' }),
  },
  'GET /deals/{id}/cis/{party}/pdf': { access: 'read', absent: 'no sheet with a PDF is attached' },
  'GET /deals/{id}/disputes': { access: 'read' },
  'POST /deals/{id}/disputes': {
    access: 'trade',
    body: () => ({ reason: 'The authorization matrix opens this dispute.' }),
  },
  'POST /deals/{id}/disputes/{dispute_id}/evidence': { access: 'trade', multipart: true },
  'GET /deals/{id}/disputes/{dispute_id}/evidence/{evidence_id}': {
    access: 'read',
    absent: 'no evidence file',
  },
  'GET /deals/{id}/travel-rule': {
    access: 'session',
    absent: 'the deal’s escrow is not open, so no Travel Rule information was exchanged',
    alsoAllowed: {
      callers: ['compliance'],
      why: 'compliance staff read any deal’s Travel Rule information (each read is audited)',
    },
    refusedOtherwise: {
      callers: [
        'otherTrader',
        'unverified',
        'mediator',
        'mediatorAal1',
        'complianceAal1',
        'admin',
        'adminAal1',
        'concierge',
        'conciergeAal1',
      ],
      status: 403,
      code: 'FORBIDDEN',
      why: 'open to the deal’s two parties and compliance staff with a second factor; anyone else is refused',
    },
  },
  'GET /deals/{id}/travel-rule/preview': { access: 'session' },
  'GET /deals/{id}/travel': { access: 'read' },
  'POST /deals/{id}/travel': {
    access: 'trade',
    body: () => ({ kind: 'hotel', traveller: 'buyer', details: 'Authorization matrix hotel' }),
  },
  'POST /deals/{id}/travel/{item_id}/cancel': { access: 'trade' },
  'POST /deals/{id}/travel/{item_id}/approve': { access: 'trade', body: () => ({}) },
  'GET /deals/{id}/travel/{item_id}/file': { access: 'read', absent: 'the travel item has no file' },
  'GET /cis/{id}/pdf': { access: 'read', absent: 'the sheet has no PDF' },
  'GET /escrow/{id}/status': { access: 'read', absent: 'no escrow is opened in this test' },
  'POST /notifications/{id}/read': { access: 'trade' },
  'DELETE /api-keys/{id}': { access: 'sensitive' },
  'DELETE /webhooks/{id}': { access: 'sensitive' },
  'GET /webhooks/{id}/deliveries': { access: 'read' },
  'POST /webhooks/{id}/deliveries/{delivery_id}/replay': { access: 'trade' },
  // Staff.
  'GET /staff/alerts': { access: 'staff', roles: ['mediator', 'compliance', 'admin'] },
  'POST /staff/alerts/{id}/resolve': { access: 'staff', roles: ['compliance', 'admin'], absent: 'no alert' },
  'POST /staff/alerts/{id}/return-foreign-deposit': {
    access: 'staff',
    roles: ['compliance', 'admin'],
    absent: 'no alert',
    body: () => ({ party: 'buyer' }),
  },
  'GET /staff/disputes': { access: 'staff', roles: ['mediator'] },
  'GET /staff/disputes/{id}': { access: 'staff', roles: ['mediator'] },
  'GET /staff/disputes/{id}/evidence/{evidence_id}': {
    access: 'staff',
    roles: ['mediator'],
    absent: 'no evidence file',
  },
  'POST /staff/disputes/{id}/assign': { access: 'staff', roles: ['mediator'] },
  'POST /staff/disputes/{id}/decision': { access: 'staff', roles: ['mediator'] },
  'GET /staff/travel': { access: 'staff', roles: ['concierge'] },
  'POST /staff/travel/{item_id}/quote': {
    access: 'staff',
    roles: ['concierge'],
    body: () => ({
      provider: 'Matrix Hotel',
      description: 'Authorization matrix quote',
      amount: '1000000',
      payee_address: checksummedEth,
    }),
  },
  'POST /staff/travel/{item_id}/file': { access: 'staff', roles: ['concierge'], multipart: true },
  'GET /staff/travel/{item_id}/file': {
    access: 'staff',
    roles: ['concierge'],
    absent: 'the travel item has no file',
  },
  'POST /staff/travel/{item_id}/booked': { access: 'staff', roles: ['concierge'] },
  'GET /staff/kyc': { access: 'staff', roles: ['compliance'] },
  'GET /staff/kyc/{id}': { access: 'staff', roles: ['compliance'], absent: 'no KYC submission' },
  'GET /staff/kyc/{id}/documents/{document_id}': {
    access: 'staff',
    roles: ['compliance'],
    absent: 'no KYC submission',
  },
  'POST /staff/kyc/{id}/approve': { access: 'staff', roles: ['compliance'], absent: 'no KYC submission' },
  'POST /staff/kyc/{id}/reject': { access: 'staff', roles: ['compliance'], absent: 'no KYC submission' },
  'GET /staff/users': { access: 'staff', roles: ['admin'] },
  'PUT /staff/users/{id}/roles': { access: 'staff', roles: ['admin'], body: () => ({ roles: [] }) },
  'GET /staff/deals/{id}/audit': { access: 'staff', roles: ['mediator', 'compliance', 'admin'] },
  // Without `q` the search is a 400 for allowed callers: past authorization, refused on its input.
  'GET /staff/deals': { access: 'staff', roles: ['mediator', 'compliance', 'admin'] },
  'GET /staff/deals/{id}': { access: 'staff', roles: ['mediator', 'compliance', 'admin'] },
  'GET /staff/chat/events': { access: 'staff', roles: ['admin'], stream: true },
  'GET /staff/chat/conversations': { access: 'staff', roles: ['admin'] },
  'GET /staff/chat/conversations/{id}': { access: 'staff', roles: ['admin'], absent: 'no chat conversation' },
  'POST /staff/chat/conversations/{id}/assign': {
    access: 'staff',
    roles: ['admin'],
    absent: 'no chat conversation',
  },
  'POST /staff/chat/conversations/{id}/messages': {
    access: 'staff',
    roles: ['admin'],
    absent: 'no chat conversation',
    body: () => ({ body: 'Matrix answer' }),
  },
  'POST /staff/chat/conversations/{id}/attachments': {
    access: 'staff',
    roles: ['admin'],
    multipart: true,
    absent: 'no chat conversation',
  },
  'GET /staff/chat/conversations/{id}/attachments/{attachment_id}': {
    access: 'staff',
    roles: ['admin'],
    absent: 'no chat conversation',
  },
  'POST /staff/chat/conversations/{id}/close': {
    access: 'staff',
    roles: ['admin'],
    absent: 'no chat conversation',
  },
  'GET /staff/chat/canned-replies': { access: 'staff', roles: ['admin'] },
  'POST /staff/chat/canned-replies': {
    access: 'staff',
    roles: ['admin'],
    body: () => ({ title: 'Matrix', body: 'Matrix canned reply' }),
  },
  'DELETE /staff/chat/canned-replies/{id}': { access: 'staff', roles: ['admin'] },
  'GET /staff/support/messages': { access: 'staff', roles: ['admin'] },
  'GET /staff/support/messages/{id}': { access: 'staff', roles: ['admin'], absent: 'no support message' },
  'POST /staff/support/messages/{id}/status': {
    access: 'staff',
    roles: ['admin'],
    absent: 'no support message',
  },
  'POST /staff/support/messages/{id}/replies': {
    access: 'staff',
    roles: ['admin'],
    absent: 'no support message',
  },
};

type Expected = { allowed: true } | { refused: number; code: string };

const staffCallers: Partial<Record<CallerName, { role: schema.UserRole; aal2: boolean }>> = {
  mediator: { role: 'mediator', aal2: true },
  mediatorAal1: { role: 'mediator', aal2: false },
  compliance: { role: 'compliance', aal2: true },
  complianceAal1: { role: 'compliance', aal2: false },
  admin: { role: 'admin', aal2: true },
  adminAal1: { role: 'admin', aal2: false },
  concierge: { role: 'concierge', aal2: true },
  conciergeAal1: { role: 'concierge', aal2: false },
};

/** The rule: what `caller` gets from an operation declared `access`, with the operation's exceptions. */
function expected(key: string, caller: CallerName, rule: OperationRule): Expected {
  const { access } = rule;
  if (rule.refusedOtherwise?.callers.includes(caller)) {
    return { refused: rule.refusedOtherwise.status, code: rule.refusedOtherwise.code };
  }
  if (rule.alsoAllowed?.callers.includes(caller)) return { allowed: true };
  if (access === 'public') return { allowed: true };
  if (caller === 'anonymous') return { refused: 401, code: 'UNAUTHORIZED' };
  if (caller === 'readKey' || caller === 'tradeKey') {
    if (access === 'read' || (access === 'trade' && caller === 'tradeKey')) return { allowed: true };
    return { refused: 403, code: 'FORBIDDEN' };
  }
  if (access === 'staff') {
    const staff = staffCallers[caller];
    if (!staff || !rule.roles?.includes(staff.role) || !staff.aal2)
      return { refused: 403, code: 'FORBIDDEN' };
    return { allowed: true };
  }
  const ownersResource = (key.includes('{') && !key.includes(' /escrow/{id}')) || rule.ownedInBody;
  if (ownersResource && caller !== 'owner') return { refused: 404, code: 'NOT_FOUND' };
  return { allowed: true };
}

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let owner: TestTrader;
const tokens = {} as Record<Exclude<CallerName, 'anonymous'>, string>;
const ids: Record<string, string> = {};
/** What a refused body must never contain: the owner's identity and resources. */
let ownersSecrets: string[] = [];
let documented: Array<{ key: string; access: Access }> = [];

async function call(method: string, url: string, token: string | undefined, payload?: unknown) {
  return app.inject({
    method: method as 'GET',
    url,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function expectCreated(response: Awaited<ReturnType<typeof call>>): Promise<Record<string, string>> {
  expect([200, 201], response.body).toContain(response.statusCode);
  return response.json();
}

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({
    database,
    // Replaying a delivery queues a job; the queue itself is not under test here.
    jobs: { send: async () => undefined },
  });
  app = testApp.app;
  owner = await createTestTrader(app);
  const seller = await createTestTrader(app);
  ids.seller = seller.id;
  tokens.owner = owner.token;
  tokens.otherTrader = (await createTestTrader(app)).token;
  tokens.unverified = (
    await createTestTrader(app, { verificationStatus: 'pending', kycCompleted: false, tradingTier: 'basic' })
  ).token;
  for (const [name, staff] of Object.entries(staffCallers)) {
    tokens[name as keyof typeof tokens] = (
      await createTestTrader(app, { roles: [staff.role], aal: staff.aal2 ? 'aal2' : 'aal1' })
    ).token;
  }
  for (const [name, scopes] of [
    ['readKey', ['read']],
    ['tradeKey', ['read', 'trade']],
  ] as const) {
    const key = await expectCreated(await call('POST', '/api/v1/api-keys', owner.token, { name, scopes }));
    tokens[name] = key.key!;
    ids.apiKeyPrefix = key.prefix!;
  }

  // A real deal of the owner's (buyer) with a real counterparty, and the owner's other resources.
  const created = await expectCreated(
    await call('POST', '/api/v1/deals', owner.token, { ...dealTerms, counterparty_id: seller.id }),
  );
  ids.deal = created.id!;
  const [dispute] = await database.db
    .insert(schema.dealDisputes)
    .values({
      dealId: ids.deal,
      openedBy: owner.id,
      reason: 'Owner matrix dispute reason',
      statusBefore: 'terms_agreed',
    })
    .returning();
  ids.dispute = dispute!.id;
  // A travel item of the owner's deal, written directly: the deal's terms require no meeting here.
  const [travelItem] = await database.db
    .insert(schema.travelItems)
    .values({
      dealId: ids.deal,
      kind: 'hotel',
      traveller: 'buyer',
      details: 'Owner matrix hotel',
      requestedBy: owner.id,
    })
    .returning();
  ids.travelItem = travelItem!.id;
  await expectCreated(
    await call('PUT', '/api/v1/wallets/escrow-key', owner.token, {
      ciphertext: 'c2VhbGVkIHNlZWQgYnl0ZXMgYW5kIGEgZ2NtIHRhZw==',
      encryption: {
        kdf: 'PBKDF2',
        hash: 'SHA-256',
        iterations: 600_000,
        salt: 'AAECAwQFBgcICQoLDA0ODw==',
        cipher: 'AES-256-GCM',
        iv: 'AAECAwQFBgcICQoL',
      },
      ethereum_address: checksummedEth,
    }),
  );
  const sheet = await expectCreated(
    await call('POST', '/api/v1/cis', owner.token, {
      legal_name: 'Owner Matrix Holdings',
      entity_type: 'company',
      jurisdiction: 'CH',
      source_of_funds: 'Retained trading profits',
      assets: ['WETH'],
      size_min_usd: 1_000,
      size_max_usd: 1_000_000,
      preferred_chains: ['ETH'],
      settlement_window_hours: 72,
    }),
  );
  ids.cis = sheet.id!;
  const [notification] = await database.db
    .insert(schema.notifications)
    .values({ userId: owner.id, dealId: ids.deal, kind: 'deal_created', title: 'Owner only', body: 'x' })
    .returning();
  ids.notification = notification!.id;
  const [endpoint] = await database.db
    .insert(schema.webhookEndpoints)
    .values({
      userId: owner.id,
      url: 'https://owner-matrix.example.com/hook',
      events: ['deal.created'],
      secret: 'whsec_owner_matrix',
    })
    .returning();
  ids.webhook = endpoint!.id;
  const chat = await expectCreated(
    await call('POST', '/api/v1/chat/conversations', undefined, {
      email: owner.email,
      body: 'Owner matrix chat',
    }),
  );
  ids.chatToken = chat.token!;
  const [delivery] = await database.db
    .insert(schema.webhookDeliveries)
    .values({ endpointId: endpoint!.id, event: 'deal.created', body: '{"owner":"matrix"}' })
    .returning();
  ids.delivery = delivery!.id;
  ownersSecrets = [
    owner.id,
    owner.email,
    owner.username,
    ...[ids.apiKeyPrefix, ids.cis, ids.notification, ids.webhook, ids.delivery].map((id) => id!),
    'owner-matrix.example.com',
    'whsec_owner_matrix',
    'Owner Matrix Holdings',
    'Owner matrix dispute reason',
    'Owner matrix hotel',
  ];

  const document = (await call('GET', '/api/v1/openapi.json', undefined)).json();
  documented = Object.entries(document.paths as Record<string, Record<string, { 'x-access': Access }>>)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        access: operation['x-access'],
      })),
    )
    // Cancelling ends the deal: every other operation on it runs first.
    .sort((a, b) => Number(a.key.endsWith('/cancel')) - Number(b.key.endsWith('/cancel')));
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

/** A fresh key or webhook of the owner's for a call that deletes one, so later cells still have theirs. */
async function deletable(key: string): Promise<string> {
  if (key === 'DELETE /api-keys/{id}') {
    const [row] = await database.db
      .insert(schema.apiKeys)
      .values({ userId: owner.id, name: 'to delete', prefix: 'cov_live_x', keyHash: randomUUID() })
      .returning();
    return row!.id;
  }
  if (key === 'DELETE /staff/chat/canned-replies/{id}') {
    const [reply] = await database.db
      .insert(schema.chatCannedReplies)
      .values({ title: 'To delete', body: 'Matrix' })
      .returning();
    return reply!.id;
  }
  const [row] = await database.db
    .insert(schema.webhookEndpoints)
    .values({
      userId: owner.id,
      url: 'https://owner-matrix.example.com/x',
      events: ['deal.created'],
      secret: 's',
    })
    .returning();
  return row!.id;
}

/** The URL of an operation with the owner's resources (or a random id where the rule says none exists). */
async function urlFor(key: string): Promise<string> {
  const path = key.slice(key.indexOf(' ') + 1);
  const fresh = key.startsWith('DELETE ') ? await deletable(key) : undefined;
  const filled = path.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    if (name === 'party') return 'buyer';
    if (name === 'delivery_id') return ids.delivery!;
    if (name === 'dispute_id') return ids.dispute!;
    if (name === 'item_id') return ids.travelItem!;
    if (name !== 'id') return randomUUID();
    if (fresh) return fresh;
    if (path.startsWith('/deals/') || path.startsWith('/staff/deals/')) return ids.deal!;
    if (path.startsWith('/cis/')) return ids.cis!;
    if (path.startsWith('/notifications/')) return ids.notification!;
    if (path.startsWith('/webhooks/')) return ids.webhook!;
    if (path.startsWith('/staff/users/')) return owner.id;
    if (path.startsWith('/staff/disputes/')) return ids.dispute!;
    return randomUUID();
  });
  return `/api/v1${filled}`;
}

const boundary = 'matrix-boundary';
/** A 1×1 PNG named `evidence`, as the dispute forms send it. */
const evidenceForm = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="evidence"; filename="evidence.png"\r\n` +
      'Content-Type: image/png\r\n\r\n',
  ),
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);

/** One cell: the answer's status and body (the head of a stream only). */
async function callCell(
  key: string,
  caller: CallerName,
  rule: OperationRule,
  payload: (() => Record<string, unknown>) | undefined = rule.body,
) {
  const method = key.slice(0, key.indexOf(' '));
  const token = caller === 'anonymous' ? undefined : tokens[caller];
  const withBody = method === 'POST' || method === 'PUT';
  const response = await app.inject({
    method: method as 'GET',
    url: await urlFor(key),
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(rule.multipart ? { 'content-type': `multipart/form-data; boundary=${boundary}` } : {}),
      ...(rule.chatToken ? { 'x-chat-token': ids.chatToken! } : {}),
    },
    ...(rule.multipart ? { payload: evidenceForm } : withBody ? { payload: payload?.() ?? {} } : {}),
    ...(rule.stream ? { payloadAsStream: true } : {}),
  });
  if (!rule.stream) return { status: response.statusCode, body: response.body };
  const stream = response.stream();
  if (response.headers['content-type']?.toString().startsWith('text/event-stream')) {
    stream.destroy();
    return { status: response.statusCode, body: '' };
  }
  let body = '';
  for await (const chunk of stream) body += chunk.toString();
  return { status: response.statusCode, body };
}

describe('authorization matrix of every /api/v1 operation', () => {
  it('has a row for every operation of the document, and no row for one it lacks', () => {
    const keys = documented.map((operation) => operation.key);
    expect(keys.filter((key) => !(key in operations))).toEqual([]);
    expect(Object.keys(operations).filter((key) => !keys.includes(key))).toEqual([]);
    for (const { key, access } of documented) expect([key, access]).toEqual([key, operations[key]!.access]);
  });

  it('gives each caller what the operation’s access and its exceptions say, and refused bodies nothing of the owner’s', async () => {
    const mismatches: string[] = [];
    const leaks: string[] = [];
    let cells = 0;
    for (const { key, access } of documented) {
      const rule = operations[key]!;
      const bodies = [rule.body, ...(rule.otherBodies ?? [])];
      for (const caller of callerNames)
        for (const [variant, sent] of bodies.entries()) {
          const want = expected(key, caller, rule);
          const { status, body } = await callCell(key, caller, rule, sent);
          cells += 1;
          const cell = `${key}${variant > 0 ? ` (body ${variant})` : ''} [${access}] as ${caller}: ${status} ${body.slice(0, 160)}`;
          if (status >= 500) {
            mismatches.push(`${cell} (server error)`);
            continue;
          }
          if ('refused' in want) {
            const code = status === want.refused ? JSON.parse(body || '{}').error?.code : undefined;
            if (status !== want.refused || code !== want.code) {
              mismatches.push(`${cell} (expected ${want.refused} ${want.code})`);
            }
            for (const secret of ownersSecrets) {
              if (body.includes(secret)) leaks.push(`${cell} (contains ${secret})`);
            }
          } else if ([401, 403].includes(status) || (status === 404 && !rule.absent)) {
            mismatches.push(`${cell} (expected allowed)`);
          }
        }
    }
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
    const variants = documented.reduce(
      (sum, { key }) => sum + (operations[key]!.otherBodies?.length ?? 0),
      0,
    );
    expect(variants).toBe(4);
    expect(cells).toBe((documented.length + variants) * callerNames.length);
    // Thousands of cells, each a real request: longer than the default on a loaded machine.
  }, 180_000);
});
