import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword, seedDemoData } from '../../seed/seed-demo-data.js';
import { signInDemoStaff } from '../../testing/sign-in-demo-staff.js';
import { type AuthTestServer, startAuthTestServer } from '../auth-v1/start-auth-test-server.js';

let server: AuthTestServer;
let complianceToken: string;
beforeAll(async () => {
  server = await startAuthTestServer({ env: { AUTH_REQUIRE_EMAIL_CONFIRMATION: 'false' } });
  await seedDemoData(server.database.db, server.now);
  complianceToken = await signInDemoStaff(server, 'admin@demo.covenant.test');
});
afterAll(() => server?.close());

// A 1×1 PNG; the marker after its end makes the plaintext easy to look for on disk.
const marker = 'PASSPORT-NUMBER-X1234567';
const png = Buffer.concat([
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  Buffer.from(marker),
]);
const pdf = Buffer.from(`%PDF-1.4\n% ${marker}\n%%EOF\n`);

const individual = {
  subject_type: 'individual',
  legal_name: 'Tess Trader',
  country: 'DE',
  date_of_birth: '1990-06-01',
  place_of_birth_city: 'Hamburg',
  place_of_birth_country: 'DE',
  address: 'Hauptstraße 1, 10115 Berlin',
  town_name: 'Berlin',
  requested_tier: 'enhanced',
};

type Json = Record<string, unknown>;

async function signIn(email: string): Promise<string> {
  const { data, error } = await server.createClient().signInWithPassword({ email, password: demoPassword });
  expect(error).toBeNull();
  return data.session!.access_token;
}

async function signUp(): Promise<{ id: string; email: string; token: string }> {
  const name = `kyc_${Math.random().toString(36).slice(2, 10)}`;
  const email = `${name}@example.com`;
  const { data, error } = await server.createClient().signUp({
    email,
    password: 'correct horse battery',
    options: { data: { username: name } },
  });
  expect(error).toBeNull();
  return { id: data.user!.id, email, token: data.session!.access_token };
}

interface Upload {
  name: string;
  content: Buffer;
  type?: string;
}

function form(fields: Record<string, string>, documents: Upload[]) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const document of documents) {
    body.append(
      'documents',
      new Blob([document.content], { type: document.type ?? 'image/png' }),
      document.name,
    );
  }
  return body;
}

async function call(method: string, path: string, token: string | undefined, body?: FormData | Json) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body && !(body instanceof FormData)) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.origin}/api/v1${path}`, {
    method,
    headers,
    body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields it expects and asserts on them
  const json: any = text.startsWith('{') ? JSON.parse(text) : text;
  return { status: response.status, body: json, headers: response.headers };
}

const submit = (
  token: string,
  fields: Record<string, string> = individual,
  documents: Upload[] = [{ name: 'id.png', content: png }],
) => call('POST', '/kyc', token, form(fields, documents));

const profileOf = async (token: string) => (await call('GET', '/user/profile', token)).body;

describe('POST /api/v1/kyc', () => {
  it('replays the first answer for the same Idempotency-Key and files, and refuses other files', async () => {
    const trader = await signUp();
    const send = (documents: Upload[]) =>
      fetch(`${server.origin}/api/v1/kyc`, {
        method: 'POST',
        headers: { authorization: `Bearer ${trader.token}`, 'idempotency-key': 'kyc-retry-1' },
        body: form(individual, documents),
      });
    const first = await send([{ name: 'id.png', content: png }]);
    expect(first.status).toBe(201);
    const firstBody = await first.json();

    const retry = await send([{ name: 'id.png', content: png }]);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(firstBody);

    // Same fields and file name, different bytes: a different request under the same key.
    const changed = Buffer.concat([png, Buffer.from([0])]);
    const other = await send([{ name: 'id.png', content: changed }]);
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await call('GET', '/kyc', trader.token)).body.data).toHaveLength(1);
  });

  it('stores the submission, marks the profile pending and lists it', async () => {
    const trader = await signUp();
    const created = await submit(trader.token, { ...individual, country: 'de' }, [
      { name: 'passport.pdf', content: pdf, type: 'application/pdf' },
      { name: 'C:\\scans\\selfie.png', content: png },
    ]);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      status: 'pending',
      subject_type: 'individual',
      legal_name: 'Tess Trader',
      country: 'DE',
      date_of_birth: '1990-06-01',
      place_of_birth_city: 'Hamburg',
      place_of_birth_country: 'DE',
      registration_number: null,
      registration_authority: null,
      address: 'Hauptstraße 1, 10115 Berlin',
      town_name: 'Berlin',
      requested_tier: 'enhanced',
      approved_tier: null,
      limit_usd: null,
      rejection_reason: null,
      submitted_at: expect.any(String),
      reviewed_at: null,
      documents: [
        {
          id: expect.any(String),
          filename: 'passport.pdf',
          content_type: 'application/pdf',
          size: pdf.length,
        },
        { id: expect.any(String), filename: 'selfie.png', content_type: 'image/png', size: png.length },
      ],
    });
    expect(await profileOf(trader.token)).toMatchObject({
      verification_status: 'pending',
      kyc_completed: false,
    });

    const listed = await call('GET', '/kyc', trader.token);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: [created.body] });

    const again = await submit(trader.token);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'kyc_pending' } });
  });

  it('keeps documents encrypted at rest', async () => {
    const trader = await signUp();
    const created = await submit(trader.token, individual, [{ name: 'id.png', content: png }]);
    const [document] = created.body.documents;
    const onDisk = await readFile(join(server.app.config.dataDir, 'files', document.id));
    expect(onDisk.length).toBe(png.length);
    expect(onDisk.includes(Buffer.from(marker))).toBe(false);
    expect(onDisk.subarray(0, 8).equals(png.subarray(0, 8))).toBe(false);
  });

  it('accepts a company with a registration number and the code of its registration authority', async () => {
    const trader = await signUp();
    const company = {
      subject_type: 'company',
      legal_name: 'Example Trading GmbH',
      country: 'CH',
      registration_number: 'CHE-123.456.789',
      address: 'Bahnhofstrasse 1, 8001 Zürich',
      town_name: 'Zürich',
      requested_tier: 'institutional',
    };
    const badAuthority = await submit(trader.token, { ...company, registration_authority: 'Zefix' }, [
      { name: 'register.pdf', content: pdf },
    ]);
    expect(badAuthority.status).toBe(400);
    expect(badAuthority.body.error.details.issues).toEqual([
      {
        path: '/registration_authority',
        message: 'Enter the registration authority as its GLEIF code: RA and 6 digits, e.g. RA000585',
      },
    ]);
    const created = await submit(
      trader.token,
      { ...company, registration_authority: 'ra000548', place_of_birth_city: 'Basel' },
      [{ name: 'register.pdf', content: pdf }],
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      subject_type: 'company',
      date_of_birth: null,
      place_of_birth_city: null,
      place_of_birth_country: null,
      registration_number: 'CHE-123.456.789',
      registration_authority: 'RA000548',
      town_name: 'Zürich',
    });
  });

  it('refuses documents that are not PDF, PNG or JPEG by content, whatever their name', async () => {
    const trader = await signUp();
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00');
    const refused = await submit(trader.token, individual, [
      { name: 'id.png', content: png },
      { name: 'photo.png', content: gif, type: 'image/png' },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: '/documents/1', message: 'photo.png is not a PDF, PNG or JPEG file' }] },
    });
    expect((await call('GET', '/kyc', trader.token)).body.data).toEqual([]);
    expect(await profileOf(trader.token)).toMatchObject({ verification_status: 'unverified' });
  });

  it('refuses a document over 10 MB with 413, and none or more than five', async () => {
    const trader = await signUp();
    const large = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 + 1 - png.length)]);
    const tooLarge = await submit(trader.token, individual, [{ name: 'big.png', content: large }]);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Each document must be at most 10 MB',
    });

    const atLimit = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024 - png.length)]);
    expect((await submit(trader.token, individual, [{ name: 'ok.png', content: atLimit }])).status).toBe(201);

    const other = await signUp();
    const none = await submit(other.token, individual, []);
    expect(none.status).toBe(400);
    expect(none.body.error.details.issues).toEqual([
      { path: '/documents', message: 'Attach between 1 and 5 documents' },
    ]);
    const six = Array.from({ length: 6 }, (_, index) => ({ name: `${index}.png`, content: png }));
    const tooMany = await submit(other.token, individual, six);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toBe('Attach between 1 and 5 documents');
  });

  it('names missing and invalid fields, and refuses anyone under 18', async () => {
    const trader = await signUp();
    const missing = await submit(trader.token, { subject_type: 'individual' });
    expect(missing.status).toBe(400);
    const paths = missing.body.error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['/legal_name', '/country', '/address', '/requested_tier']));

    const { date_of_birth: _, ...withoutBirthDate } = individual;
    const noBirthDate = await submit(trader.token, withoutBirthDate);
    expect(noBirthDate.body.error.details.issues).toEqual([
      { path: '/date_of_birth', message: 'Enter the date of birth' },
    ]);

    // The town of the address and the place of birth are asked of every new request.
    const {
      town_name: _town,
      place_of_birth_city: _city,
      place_of_birth_country: _country,
      ...older
    } = individual;
    const withoutPlaces = await submit(trader.token, older);
    expect(withoutPlaces.status).toBe(400);
    expect(withoutPlaces.body.error.details.issues).toEqual([
      { path: '/town_name', message: 'Enter the town or city of the address' },
      { path: '/place_of_birth_city', message: 'Enter the city of birth' },
      {
        path: '/place_of_birth_country',
        message: 'Enter the country of birth as its ISO 3166-1 alpha-2 code, e.g. DE',
      },
    ]);

    const today = new Date();
    const seventeen = `${today.getUTCFullYear() - 17}-01-01`;
    const minor = await submit(trader.token, { ...individual, date_of_birth: seventeen });
    expect(minor.status).toBe(400);
    expect(minor.body.error.details.issues).toEqual([
      { path: '/date_of_birth', message: 'You must be at least 18 years old' },
    ]);

    const badCountry = await submit(trader.token, { ...individual, country: 'Germany' });
    expect(badCountry.body.error.details.issues[0].path).toBe('/country');

    const json = await call('POST', '/kyc', trader.token, individual);
    expect(json.status).toBe(400);
    expect(json.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Send the KYC form as multipart/form-data',
    });
    expect((await call('GET', '/kyc', trader.token)).body.data).toEqual([]);
  });

  it('refuses callers without a token', async () => {
    expect(
      (await call('POST', '/kyc', undefined, form(individual, [{ name: 'id.png', content: png }]))).status,
    ).toBe(401);
    expect((await call('GET', '/kyc', undefined)).status).toBe(401);
  });
});

describe('/api/v1/staff/kyc', () => {
  it('is open to compliance only: 401 without a token, 403 for a trader, 200 for compliance', async () => {
    const trader = await signUp();
    const { body: submission } = await submit(trader.token);
    const documentPath = `/staff/kyc/${submission.id}/documents/${submission.documents[0].id}`;
    const mediatorToken = await signInDemoStaff(server, 'mediator@demo.covenant.test');
    const requests: [string, string, Json?][] = [
      ['GET', '/staff/kyc?status=pending'],
      ['GET', `/staff/kyc/${submission.id}`],
      ['GET', documentPath],
      ['POST', `/staff/kyc/${submission.id}/approve`, { tier: 'basic' }],
      ['POST', `/staff/kyc/${submission.id}/reject`, { reason: 'Blurry scan' }],
    ];
    for (const [method, path, body] of requests) {
      expect((await call(method, path, undefined, body)).status, `${method} ${path} without a token`).toBe(
        401,
      );
      const asTrader = await call(method, path, trader.token, body);
      expect(asTrader.status, `${method} ${path} as a trader`).toBe(403);
      expect(asTrader.body.error.code).toBe('FORBIDDEN');
      expect((await call(method, path, mediatorToken, body)).status, `${method} ${path} as a mediator`).toBe(
        403,
      );
    }
    for (const [, path] of requests.slice(0, 3)) {
      expect((await call('GET', path, complianceToken)).status, `GET ${path} as compliance`).toBe(200);
    }
    expect((await call('GET', `/kyc`, trader.token)).body.data[0].status).toBe('pending');
  });

  it('asks compliance staff signed in with a password only (aal1) for a second factor', async () => {
    const aal1 = await signInDemoStaff(server, 'admin@demo.covenant.test', { aal1Only: true });
    const refused = await call('GET', '/staff/kyc?status=pending', aal1);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { required_aal: 'aal2' } });
  });

  it('shows the queue with the traders, the submission and its decrypted documents', async () => {
    const trader = await signUp();
    const { body: submission } = await submit(trader.token, individual, [
      { name: 'passport.pdf', content: pdf, type: 'application/pdf' },
      { name: 'id.png', content: png },
    ]);
    const queue = await call('GET', '/staff/kyc?status=pending', complianceToken);
    const entry = queue.body.data.find((item: { id: string }) => item.id === submission.id);
    expect(entry).toEqual({
      ...submission,
      user: { id: trader.id, email: trader.email, username: expect.any(String) },
    });
    // Oldest first: a queue.
    const times = queue.body.data.map((item: { submitted_at: string }) => item.submitted_at);
    expect([...times].sort()).toEqual(times);

    const detail = await call('GET', `/staff/kyc/${submission.id}`, complianceToken);
    expect(detail.body).toEqual(entry);

    const response = await fetch(
      `${server.origin}/api/v1/staff/kyc/${submission.id}/documents/${submission.documents[0].id}`,
      { headers: { authorization: `Bearer ${complianceToken}` } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await response.arrayBuffer()).equals(pdf)).toBe(true);

    const other = await signUp();
    const { body: otherSubmission } = await submit(other.token);
    // A document is only reachable through its own submission.
    const crossed = await call(
      'GET',
      `/staff/kyc/${submission.id}/documents/${otherSubmission.documents[0].id}`,
      complianceToken,
    );
    expect(crossed.status).toBe(404);
    expect(
      (await call('GET', '/staff/kyc/00000000-0000-4000-8000-000000000000', complianceToken)).status,
    ).toBe(404);
  });

  it('approves with a tier: the profile becomes verified and KYC-complete, and the trader gets an e-mail', async () => {
    const trader = await signUp();
    const { body: submission } = await submit(trader.token);
    const approved = await call('POST', `/staff/kyc/${submission.id}/approve`, complianceToken, {
      tier: 'enhanced',
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      approved_tier: 'enhanced',
      limit_usd: '100000',
      reviewed_at: expect.any(String),
    });
    expect(await profileOf(trader.token)).toMatchObject({
      verification_status: 'verified',
      trading_tier: 'enhanced',
      kyc_completed: true,
      tier_limit_usd: '100000',
    });

    const email = await server.takeEmail(trader.email, 'verification is approved');
    expect(email.text).toContain('verified at the Enhanced tier, with a limit of $100,000 per transaction');
    expect(email.text).toContain('http://covenant.test/trading');

    const twice = await call('POST', `/staff/kyc/${submission.id}/reject`, complianceToken, {
      reason: 'Too late',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error.details).toEqual({ reason: 'kyc_already_reviewed' });

    // The trader now appears among partners.
    const partners = await call('GET', '/partners', await signIn('buyer@demo.covenant.test'));
    expect(partners.body.data.map((partner: { id: string }) => partner.id)).toContain(trader.id);
  });

  it('needs a limit for institutional, and only for institutional', async () => {
    const trader = await signUp();
    const { body: submission } = await submit(trader.token, {
      ...individual,
      requested_tier: 'institutional',
    });
    const approve = (body: Json) =>
      call('POST', `/staff/kyc/${submission.id}/approve`, complianceToken, body);

    const withoutLimit = await approve({ tier: 'institutional' });
    expect(withoutLimit.status).toBe(400);
    expect(withoutLimit.body.error.details.issues[0].path).toBe('/limit_usd');
    expect((await approve({ tier: 'basic', limit_usd: '5000' })).status).toBe(400);
    expect((await approve({ tier: 'institutional', limit_usd: '2.5e6' })).status).toBe(400);
    expect((await approve({ tier: 'platinum' })).status).toBe(400);

    const approved = await approve({ tier: 'institutional', limit_usd: '2500000' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ approved_tier: 'institutional', limit_usd: '2500000' });
    expect(await profileOf(trader.token)).toMatchObject({
      trading_tier: 'institutional',
      tier_limit_usd: '2500000',
      kyc_completed: true,
    });
    const email = await server.takeEmail(trader.email, 'verification is approved');
    expect(email.text).toContain('Institutional tier, with a limit of $2,500,000 per transaction');
  });

  it('rejects with a reason: the profile shows rejected and the e-mail carries the reason', async () => {
    const trader = await signUp();
    const { body: submission } = await submit(trader.token);
    const short = await call('POST', `/staff/kyc/${submission.id}/reject`, complianceToken, { reason: '' });
    expect(short.status).toBe(400);

    const rejected = await call('POST', `/staff/kyc/${submission.id}/reject`, complianceToken, {
      reason: 'The passport scan is unreadable',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      rejection_reason: 'The passport scan is unreadable',
    });
    expect(await profileOf(trader.token)).toMatchObject({
      verification_status: 'rejected',
      kyc_completed: false,
    });

    const email = await server.takeEmail(trader.email, 'verification was not approved');
    expect(email.text).toContain('Reason: The passport scan is unreadable');
    expect(email.html).toContain('http://covenant.test/kyc');

    // A new request may follow a rejection.
    expect((await submit(trader.token)).status).toBe(201);
    expect(await profileOf(trader.token)).toMatchObject({ verification_status: 'pending' });
  });

  it('keeps a verified trader verified while an upgrade is reviewed and after it is refused', async () => {
    const trader = await signUp();
    const { body: first } = await submit(trader.token, { ...individual, requested_tier: 'basic' });
    await call('POST', `/staff/kyc/${first.id}/approve`, complianceToken, { tier: 'basic' });
    const { body: upgrade } = await submit(trader.token, { ...individual, requested_tier: 'enhanced' });
    expect(await profileOf(trader.token)).toMatchObject({
      verification_status: 'verified',
      trading_tier: 'basic',
    });
    await call('POST', `/staff/kyc/${upgrade.id}/reject`, complianceToken, {
      reason: 'Source of funds unclear',
    });
    expect(await profileOf(trader.token)).toMatchObject({
      verification_status: 'verified',
      trading_tier: 'basic',
      kyc_completed: true,
      tier_limit_usd: '10000',
    });
  });

  it('does not let a compliance officer decide their own request', async () => {
    const { body: own } = await submit(complianceToken);
    const refused = await call('POST', `/staff/kyc/${own.id}/approve`, complianceToken, { tier: 'enhanced' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('You cannot review your own verification request');
  });

  it('leaves no ciphertext behind for refused submissions', async () => {
    const before = await readdir(join(server.app.config.dataDir, 'files'));
    const trader = await signUp();
    await submit(trader.token);
    const duplicate = await submit(trader.token);
    expect(duplicate.status).toBe(409);
    const after = await readdir(join(server.app.config.dataDir, 'files'));
    expect(after.length).toBe(before.length + 1);
  });
});
