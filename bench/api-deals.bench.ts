// GET and POST /api/v1/deals on PostgreSQL against a bare node:http + pg handler doing the same
// queries, driven by autocannon in the same run. Target (issue 4): the list at ≥ 0.6 of bare.
// PostgreSQL: BENCH_DATABASE_URL (an admin connection; a throw-away database is created and dropped),
// default postgres://postgres@127.0.0.1:5432/postgres. BENCH_REDIS_URL: rate-limit counters in Redis
// instead of the database, as replicas would run. BENCH_NODE_ARGS: extra node flags for our server only,
// e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its time goes.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

const rootDirectory = join(import.meta.dirname, '..');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const connections = 10;
const rounds = 5;
const listTarget = 0.6;

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

const databaseName = `covenant_bench_${randomUUID().replaceAll('-', '')}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
let ours: ChildProcess | undefined;
let bare: ChildProcess | undefined;
let failed = false;

await admin(`create database "${databaseName}"`);
try {
  const ourPort = await freePort();
  const ourOrigin = `http://127.0.0.1:${ourPort}`;
  ours = spawnServer('apps/server/src/main.ts', {
    PORT: String(ourPort),
    HOST: '127.0.0.1',
    PUBLIC_URL: ourOrigin,
    // Production never seeds the demo traders the bench signs in as; the test mode does, and with
    // JSON logs at warn it logs as production would.
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    DATABASE_URL: databaseUrl,
    SEED_DEMO_DATA: 'true',
    // The hourly limits would stop the run after a second; requests are still counted as usual.
    API_RATE_LIMIT_STANDARD: '1000000000',
    API_RATE_LIMIT_PREMIUM: '1000000000',
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  });
  await waitFor(`${ourOrigin}/readyz`, ours);

  const login = await fetch(`${ourOrigin}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'buyer@demo.covenant.test', password: 'covenant-demo' }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const ids = new pg.Client({ connectionString: databaseUrl });
  await ids.connect();
  const { rows } = await ids.query<{ id: string; email: string }>(
    `select id, email from users where email in ('buyer@demo.covenant.test', 'seller@demo.covenant.test')`,
  );
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

  const barePort = await freePort();
  bare = spawnServer('bench/bare-deals-server.ts', {
    PORT: String(barePort),
    DATABASE_URL: databaseUrl,
    BENCH_USER_ID: buyerId,
    BENCH_SELLER_ID: sellerId,
  });
  await waitFor(`http://127.0.0.1:${barePort}/`, bare);

  const run = (url: string, method: 'GET' | 'POST', seconds: number) =>
    autocannon({
      url,
      method,
      connections,
      duration: seconds,
      headers,
      body: method === 'POST' ? newDeal : undefined,
    });
  type Slice = Awaited<ReturnType<typeof run>>;
  // The machine is shared: ours and bare take turns in short slices (alternating which goes first),
  // so both see the same background load instead of one of them running through a busy spell.
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const compare = async (method: 'GET' | 'POST') => {
    const slices = { ours: [] as Slice[], bare: [] as Slice[] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
      for (const name of order) {
        const url = name === 'ours' ? `${ourOrigin}/api/v1/deals` : `http://127.0.0.1:${barePort}/`;
        slices[name].push(await run(url, method, durationSeconds / rounds));
      }
    }
    const summarize = (results: Slice[]) => ({
      perSecond: results.reduce((sum, r) => sum + r.requests.total, 0) / durationSeconds,
      p50: median(results.map((r) => r.latency.p50)),
      p99: median(results.map((r) => r.latency.p99)),
      non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
    });
    return { our: summarize(slices.ours), base: summarize(slices.bare) };
  };

  const counters = process.env.BENCH_REDIS_URL ? 'Redis' : 'PostgreSQL';
  console.log(
    `PostgreSQL, rate-limit counters in ${counters}, ${connections} connections, ${durationSeconds} s per run in ${rounds} alternating slices, p50/p99 the median of the slices, 50 deals listed 20 per page\n`,
  );
  const results = [];
  for (const [label, method] of [
    ['GET /api/v1/deals', 'GET'],
    ['POST /api/v1/deals', 'POST'],
  ] as const) {
    // Warm both up before measuring (JIT, pools, caches).
    await autocannon({
      url: `${ourOrigin}/api/v1/deals`,
      method,
      connections,
      duration: 2,
      headers,
      body: method === 'POST' ? newDeal : undefined,
    });
    await autocannon({
      url: `http://127.0.0.1:${barePort}/`,
      method,
      connections,
      duration: 2,
      headers,
      body: method === 'POST' ? newDeal : undefined,
    });
    const { our, base } = await compare(method);
    for (const [name, result] of [
      ['covenant', our],
      ['bare', base],
    ] as const) {
      if (result.non2xx > 0 || result.errors > 0) {
        console.error(`${label} (${name}): ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        failed = true;
      }
    }
    results.push({
      label,
      our,
      base,
      ratio: our.perSecond / base.perSecond,
    });
  }

  const pad = (text: string | number, width: number) => String(text).padStart(width);
  console.log(
    `${'request'.padEnd(20)}${pad('ours req/s', 12)}${pad('p50', 7)}${pad('p99', 7)}${pad('bare req/s', 12)}${pad('p50', 7)}${pad('p99', 7)}${pad('ours/bare', 11)}`,
  );
  for (const { label, our, base, ratio } of results) {
    console.log(
      `${label.padEnd(20)}${pad(our.perSecond.toFixed(0), 12)}${pad(`${our.p50}ms`, 7)}${pad(`${our.p99}ms`, 7)}` +
        `${pad(base.perSecond.toFixed(0), 12)}${pad(`${base.p50}ms`, 7)}${pad(`${base.p99}ms`, 7)}${pad(ratio.toFixed(2), 11)}`,
    );
  }
  const listRatio = results[0]!.ratio;
  console.log(`\nList at ${listRatio.toFixed(2)} of bare (target ≥ ${listTarget}).`);
  if (listRatio < listTarget) failed = true;
} finally {
  await stop(ours);
  await stop(bare);
  await admin(`drop database if exists "${databaseName}" with (force)`);
}
if (failed) process.exit(1);
