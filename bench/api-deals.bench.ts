// The API against its physical limits, on PostgreSQL, in one run:
// - GET and POST /api/v1/deals against a bare node:http + pg handler sending exactly the same
//   statements (bench/bare-deals-server.ts), and POST against pgbench running them as a script: what
//   is left between ours and bare is our JavaScript, what is left between bare and pgbench is Node
//   and HTTP;
// - sign-in (POST /api/v1/auth/login) against the bare handler's sign-in sending the same statements
//   with the same argon2id verification (ADR 033), and both against raw argon2id verifications at the
//   same cost and the same concurrency, for the bench's own accounts (BENCH_UNTHROTTLED_SIGN_IN_EMAILS
//   lifts their sign-in throttling; refused in production).
// Every contestant runs in short alternating slices so all see the same background load. Each
// measure is a row of `npm run bench`'s table (bench/report-row.ts) with its goal.
// PostgreSQL: BENCH_DATABASE_URL (an admin connection; a throw-away database is created and dropped),
// default postgres://postgres@127.0.0.1:5432/postgres. BENCH_REDIS_URL: rate-limit counters in Redis
// instead of the database, as replicas would run. BENCH_NODE_ARGS: extra node flags for our server only,
// e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its time goes. BENCH_PORTS: the first of
// the ports the bench listens on (ours, then bare); by default free ones.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import autocannon from 'autocannon';
import pg from 'pg';
import { statements } from './deal-statements.js';
import { reportRow } from './report-row.js';

const rootDirectory = join(import.meta.dirname, '..');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const connections = 10;
const rounds = 5;
// pgbench takes whole seconds for a slice (-T).
if (!Number.isInteger(durationSeconds / rounds) || durationSeconds <= 0) {
  throw new Error(
    `BENCH_DURATION must be a positive multiple of ${rounds} (seconds per contestant, in ${rounds} slices)`,
  );
}
const sliceSeconds = durationSeconds / rounds;
/** A sign-in takes about a second under load: longer slices, so cutting them off costs little. */
const signInSliceSeconds = 2 * sliceSeconds;
const goals = { list: 0.8, create: 0.7, signIn: 0.9 };
/** The bench's own accounts, one per connection: sign-ins of one account would wait on each other's row. */
const signInEmails = Array.from(
  { length: connections },
  (_, index) => `sign-in-${index}@bench.covenant.test`,
);
const signInPassword = 'bench sign-in password';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const firstPort = process.env.BENCH_PORTS ? Number(process.env.BENCH_PORTS) : undefined;
const portAt = (offset: number) =>
  firstPort === undefined ? freePort() : Promise.resolve(firstPort + offset);

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function spawnServer(script: string, env: Record<string, string>): ChildProcess {
  const nodeArgs = script.startsWith('apps/')
    ? (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
    : [];
  return spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: rootDirectory,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const up = await fetch(url).then(
      (response) => response.status < 500,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${url} did not come up`);
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Resolves once every notification has been e-mailed: our server's outbox has no work left over
 * from the deals created so far (it sends in the background, after the answers).
 */
async function outboxDrained(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { rows } = await client.query<{ unsent: number }>(
        'select count(*)::int as unsent from notifications where emailed_at is null',
      );
      if (rows[0]!.unsent === 0) return;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.unsent} notification e-mails still unsent`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
}

/** One slice of one contestant: how many requests (or transactions) completed, and their latencies. */
interface Slice {
  total: number;
  p50: number;
  p99: number;
  failures: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Runs each contestant for `rounds` slices of `seconds`, in turns (the order rotating each
 * round), and sums them up: requests per second over the whole time, p50/p99 the median of the slices.
 */
async function compare<Name extends string>(
  contestants: Record<Name, (seconds: number) => Promise<Slice>>,
  seconds = sliceSeconds,
) {
  const names = Object.keys(contestants) as Name[];
  const slices = Object.fromEntries(names.map((name) => [name, [] as Slice[]])) as Record<Name, Slice[]>;
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(round + turn) % names.length]!;
      slices[name].push(await contestants[name](seconds));
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const results = slices[name];
      return [
        name,
        {
          perSecond: results.reduce((sum, r) => sum + r.total, 0) / (seconds * rounds),
          p50: median(results.map((r) => r.p50)),
          p99: median(results.map((r) => r.p99)),
          failures: results.reduce((sum, r) => sum + r.failures, 0),
        },
      ];
    }),
  ) as Record<Name, { perSecond: number; p50: number; p99: number; failures: number }>;
}

async function http(
  url: string,
  method: 'GET' | 'POST',
  seconds: number,
  headers: Record<string, string>,
  body?: string | string[],
): Promise<Slice> {
  // A list of bodies: each connection sends its own, over and over.
  const bodies = Array.isArray(body) ? [...body] : undefined;
  const result = await autocannon({
    url,
    method,
    connections,
    duration: seconds,
    headers,
    body: Array.isArray(body) ? body[0] : body,
    ...(bodies ? { setupClient: (client) => client.setBody(bodies.shift() ?? body![0]!) } : {}),
  });
  return {
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors,
  };
}

/** pgbench running `script` with as many clients as autocannon has connections. */
function pgbench(
  databaseUrl: string,
  script: string,
  variables: Record<string, string>,
  seconds: number,
): Promise<Slice> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'pgbench',
      [
        ...[
          '-n',
          '-M',
          'prepared',
          '-c',
          String(connections),
          '-j',
          '1',
          '-T',
          String(seconds),
          '-f',
          script,
        ],
        ...Object.entries(variables).flatMap(([name, value]) => ['-D', `${name}=${value}`]),
        databaseUrl,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => {
      const processed = /number of transactions actually processed: (\d+)/.exec(output);
      // Each slice opens its connections anew; the rate without that time is the script's own.
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output);
      const failed = /number of failed transactions: (\d+)/.exec(output);
      const latency = /latency average = ([\d.]+) ms/.exec(output);
      if (status !== 0 || !processed) {
        reject(new Error(`pgbench failed (${status}):\n${output}`));
        return;
      }
      const average = Number(latency?.[1] ?? 0);
      resolve({
        total: tps ? Number(tps[1]) * Math.max(1, Math.round(seconds)) : Number(processed[1]),
        p50: average,
        p99: Number.NaN,
        failures: Number(failed?.[1] ?? 0),
      });
    });
  });
}

/** Raw argon2id verifications of `passwordHash`, `connections` at a time, for `seconds`. */
async function argon2Slice(passwordHash: string, seconds: number): Promise<Slice> {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let failures = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        if (!(await verify(passwordHash, signInPassword))) failures += 1;
        // As autocannon does, what finishes after the slice is not counted.
        if (performance.now() <= until) latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    total: latencies.length,
    p50: Math.round(latencies[Math.floor(latencies.length / 2)] ?? 0),
    p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    failures,
  };
}

/**
 * The POST's statements as a pgbench script, in the same order and transaction, with its values as
 * parameters (pgbench variables, given by `pgbenchVariables`). The values our server computes in
 * JavaScript (terms, the audit hash) are constants of the same size, the times `now()`; the new
 * deal's id is carried from its insert to the next statements as our server carries it.
 */
function pgbenchScript(): string {
  const render = (statement: { text: string }, values: string[]) =>
    `${statement.text.replace(/\$(\d+)/g, (_match, index: string) => values[Number(index) - 1]!)};`;
  const now = 'now()';
  return [
    render(statements.sessionCaller, [':session', ':buyer']),
    render(statements.rateLimit, [':rate_key', '1', `(${now} + interval '1 hour')`, now, now]),
    render(statements.traderProfiles, [':buyer', ':seller']),
    'begin;',
    render(statements.insertDeal, [
      ':buyer',
      ':seller',
      "'BTC'",
      "'BTC'",
      "'50000000'",
      "'ETH'",
      "'USDC'",
      "'30000000000'",
      'false',
      'null',
      'null',
      "'draft'",
      now,
      now,
    ]).replace(/ returning .*;$/, ' returning "id" as deal_id \\gset'),
    render(statements.insertTermsVersion, [':deal_id', '1', ':buyer', ':terms', now]),
    render(statements.lastAuditEntry, [':deal_id', '1']),
    render(statements.insertAuditEntry, [
      ':deal_id',
      '1',
      ':buyer',
      "'created'",
      ':payload',
      now,
      ':prev_hash',
      ':hash',
    ]),
    render(statements.insertHistory, [':deal_id', ':deal_id', "'created'", ':buyer', ':payload', now]),
    render(statements.insertNotifications, [
      "'created'",
      "'New deal proposed'",
      "'A buyer opened a deal with you. Attach your Customer Information Sheet to begin.'",
      now,
      ':deal_id',
      ':buyer',
    ]),
    'commit;',
    render(statements.webhookEndpoints, [':buyer', ':seller']),
  ]
    .join('\n')
    .concat('\n');
}

/** The script's variables (`pgbench -D`). */
function pgbenchVariables(userId: string, sellerId: string, sessionId: string): Record<string, string> {
  const terms = {
    asset_chain: 'BTC',
    asset_symbol: 'BTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    meeting_required: false,
    travel_location: null,
    funding_deadline_hours: 24,
  };
  return {
    buyer: userId,
    seller: sellerId,
    session: sessionId,
    rate_key: `api:user:${userId}`,
    terms: JSON.stringify(terms),
    payload: JSON.stringify({ buyer_id: userId, seller_id: sellerId, version: 1, terms }),
    prev_hash: '0'.repeat(64),
    hash: 'f'.repeat(64),
  };
}

const databaseName = `covenant_bench_${randomUUID().replaceAll('-', '')}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
const scratch = mkdtempSync(join(tmpdir(), 'covenant-bench-api-'));
let ours: ChildProcess | undefined;
let bare: ChildProcess | undefined;
let failed = false;

await admin(`create database "${databaseName}"`);
try {
  const ourPort = await portAt(0);
  const ourOrigin = `http://127.0.0.1:${ourPort}`;
  ours = spawnServer('apps/server/src/main.ts', {
    PORT: String(ourPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: ourOrigin,
    DATA_DIR: join(scratch, 'data'),
    // Production never seeds the demo traders the bench trades as; the test mode does, and with
    // JSON logs at warn it logs as production would.
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DATABASE_URL: databaseUrl,
    SEED_DEMO_DATA: 'true',
    // The hourly limits would stop the run after a second; requests are still counted as usual.
    API_RATE_LIMIT_STANDARD: '1000000000',
    API_RATE_LIMIT_PREMIUM: '1000000000',
    // The embedded devnets stand still (a deployment talks to real nodes, not to chains in its own
    // process): no block or slot is produced in the background of the measured requests.
    BTC_DEVNET_BLOCK_INTERVAL_MS: '0',
    SOL_DEVNET_SLOT_INTERVAL_MS: '60000',
    // The bench's own sign-in account is not throttled (every other account is, as usual).
    BENCH_UNTHROTTLED_SIGN_IN_EMAILS: signInEmails.join(','),
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  });
  await waitFor(`${ourOrigin}/readyz`, ours);

  const login = await fetch(`${ourOrigin}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'buyer@demo.covenant.test', password: 'covenant-demo' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const sessionId = (
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { session_id: string }
  ).session_id;
  const signInHash = await hash(signInPassword);
  const ids = new pg.Client({ connectionString: databaseUrl });
  await ids.connect();
  const { rows } = await ids.query<{ id: string; email: string }>(
    `select id, email from users where email in ('buyer@demo.covenant.test', 'seller@demo.covenant.test')`,
  );
  for (const email of signInEmails) {
    const {
      rows: [signInUser],
    } = await ids.query<{ id: string }>(
      `insert into users (email, password_hash, email_confirmed_at) values ($1, $2, now()) returning id`,
      [email, signInHash],
    );
    await ids.query('insert into profiles (id) values ($1)', [signInUser!.id]);
  }
  await ids.end();
  const buyerId = rows.find((row) => row.email.startsWith('buyer'))!.id;
  const sellerId = rows.find((row) => row.email.startsWith('seller'))!.id;

  const newDeal = JSON.stringify({
    asset_chain: 'BTC',
    asset_symbol: 'BTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: sellerId,
  });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; i < 50; i++) {
    const created = await fetch(`${ourOrigin}/api/v1/deals`, { method: 'POST', headers, body: newDeal });
    if (created.status !== 201)
      throw new Error(`seeding deal ${i}: HTTP ${created.status} ${await created.text()}`);
  }

  const barePort = await portAt(1);
  const bareOrigin = `http://127.0.0.1:${barePort}`;
  bare = spawnServer('bench/bare-deals-server.ts', {
    PORT: String(barePort),
    DATABASE_URL: databaseUrl,
    BENCH_USER_ID: buyerId,
    BENCH_SELLER_ID: sellerId,
    BENCH_SESSION_ID: sessionId,
  });
  await waitFor(`${bareOrigin}/list-only`, bare);
  const script = join(scratch, 'create-deal.sql');
  writeFileSync(script, pgbenchScript());
  const variables = pgbenchVariables(buyerId, sellerId, sessionId);
  await pgbench(databaseUrl, script, variables, 1);

  const counters = process.env.BENCH_REDIS_URL ? 'Redis' : 'PostgreSQL';
  console.log(
    `PostgreSQL, rate-limit counters in ${counters}, ${connections} connections (pgbench clients, argon2 verifications in flight), ${durationSeconds} s per contestant in ${rounds} alternating slices (sign-in: ${rounds * signInSliceSeconds} s), p50/p99 the median of the slices (pgbench: average latency), 50+ deals listed 20 per page\n`,
  );

  // Each comparison is warmed up just before it (JIT, pools, caches, named statements), and starts
  // once our server has sent the e-mails of the deals created before it (the counterparty's
  // notification of each new deal): a GET measured while the outbox works through the POST warm-up's
  // deals would be charged with e-mail the bare server never sends.
  const warmUp = async (...targets: (readonly [string, 'GET' | 'POST'])[]) => {
    for (const [url, method] of targets) {
      await http(url, method, 2, headers, method === 'POST' ? newDeal : undefined);
    }
    await outboxDrained(databaseUrl);
  };
  await warmUp(
    [`${ourOrigin}/api/v1/deals`, 'GET'],
    [`${bareOrigin}/`, 'GET'],
    [`${bareOrigin}/list-only`, 'GET'],
  );
  const list = await compare({
    covenant: (seconds) => http(`${ourOrigin}/api/v1/deals`, 'GET', seconds, headers),
    bare: (seconds) => http(`${bareOrigin}/`, 'GET', seconds, headers),
    'bare, list query only': (seconds) => http(`${bareOrigin}/list-only`, 'GET', seconds, headers),
  });
  await warmUp([`${ourOrigin}/api/v1/deals`, 'POST'], [`${bareOrigin}/`, 'POST']);
  const create = await compare({
    covenant: (seconds) => http(`${ourOrigin}/api/v1/deals`, 'POST', seconds, headers, newDeal),
    bare: (seconds) => http(`${bareOrigin}/`, 'POST', seconds, headers, newDeal),
    pgbench: (seconds) => pgbench(databaseUrl, script, variables, seconds),
  });
  await outboxDrained(databaseUrl);

  const signInBodies = signInEmails.map((email) => JSON.stringify({ email, password: signInPassword }));
  const signInHeaders = { 'content-type': 'application/json' };
  await http(`${ourOrigin}/api/v1/auth/login`, 'POST', 2, signInHeaders, signInBodies);
  await http(`${bareOrigin}/sign-in`, 'POST', 2, signInHeaders, signInBodies);
  const signIn = await compare(
    {
      'sign-in': (seconds) =>
        http(`${ourOrigin}/api/v1/auth/login`, 'POST', seconds, signInHeaders, signInBodies),
      'bare sign-in': (seconds) =>
        http(`${bareOrigin}/sign-in`, 'POST', seconds, signInHeaders, signInBodies),
      'raw argon2id': (seconds) => argon2Slice(signInHash, seconds),
    },
    signInSliceSeconds,
  );

  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const ms = (value: number) => (Number.isNaN(value) ? '–' : `${Math.round(value)}ms`);
  console.log(
    `${'request'.padEnd(44)}${pad('per second', 12)}${pad('p50', 8)}${pad('p99', 8)}${pad('failed', 8)}`,
  );
  for (const [label, results] of [
    ['GET /api/v1/deals', list],
    ['POST /api/v1/deals', create],
    ['sign-in', signIn],
  ] as const) {
    for (const [name, result] of Object.entries(results)) {
      console.log(
        `${`${label}: ${name}`.padEnd(44)}${pad(result.perSecond.toFixed(0), 12)}${pad(ms(result.p50), 8)}${pad(ms(result.p99), 8)}${pad(result.failures, 8)}`,
      );
      if (result.failures > 0) failed = true;
    }
  }
  console.log();

  const ratio = (our: { perSecond: number }, base: { perSecond: number }) => our.perSecond / base.perSecond;
  // Rounded down, so a ratio just under its goal never prints as the goal.
  const figures = (our: { perSecond: number }, base: { perSecond: number }, unit = 'req/s') =>
    `${(Math.floor(ratio(our, base) * 100) / 100).toFixed(2)} (${our.perSecond.toFixed(0)}/${base.perSecond.toFixed(0)} ${unit})`;
  const listRatio = ratio(list.covenant, list.bare);
  reportRow({
    measure: 'GET /api/v1/deals vs bare node:http + pg, same statements',
    value: figures(list.covenant, list.bare),
    goal: `≥ ${goals.list}`,
    pass: listRatio >= goals.list,
  });
  reportRow({
    measure: 'GET /api/v1/deals vs bare running the list query only',
    value: figures(list.covenant, list['bare, list query only']),
    goal: 'reported',
    pass: null,
  });
  const createRatio = ratio(create.covenant, create.bare);
  reportRow({
    measure: 'POST /api/v1/deals vs bare node:http + pg, same statements and transaction',
    value: figures(create.covenant, create.bare),
    goal: `≥ ${goals.create}`,
    pass: createRatio >= goals.create,
  });
  reportRow({
    measure: 'POST /api/v1/deals vs pgbench running the same statements',
    value: figures(create.covenant, create.pgbench, 'tx/s'),
    goal: 'reported',
    pass: null,
  });
  reportRow({
    measure: 'bare POST vs pgbench: Node, HTTP and the pg driver',
    value: figures(create.bare, create.pgbench, 'tx/s'),
    goal: 'reported',
    pass: null,
  });
  reportRow({
    measure: `raw argon2id verifications (default cost, ${connections} at a time)`,
    value: `${signIn['raw argon2id'].perSecond.toFixed(1)}/s`,
    goal: 'reported (physical limit)',
    pass: null,
  });
  const signInRatio = ratio(signIn['sign-in'], signIn['bare sign-in']);
  reportRow({
    measure: 'sign-in vs bare node:http + pg + argon2id, same statements (ADR 033)',
    value: figures(signIn['sign-in'], signIn['bare sign-in'], '/s'),
    goal: `≥ ${goals.signIn}`,
    pass: signInRatio >= goals.signIn,
  });
  reportRow({
    measure: 'sign-in vs raw argon2id, same cost and concurrency',
    value: figures(signIn['sign-in'], signIn['raw argon2id'], '/s'),
    goal: 'reported',
    pass: null,
  });
  reportRow({
    measure: 'bare sign-in vs raw argon2id: the statements, Node and HTTP',
    value: figures(signIn['bare sign-in'], signIn['raw argon2id'], '/s'),
    goal: 'reported',
    pass: null,
  });
} finally {
  await stop(ours);
  await stop(bare);
  await admin(`drop database if exists "${databaseName}" with (force)`);
  rmSync(scratch, { recursive: true, force: true });
}
if (failed) process.exit(1);
