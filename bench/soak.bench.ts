// Soak: SOAK_MINUTES (default 10) of mixed API traffic against the real server on the embedded
// default (PGlite, the Ethereum devnet, the demo accounts) as a child process. Traders sign in and
// list, create and read deals, write and read deal-room messages, read their profile, the chains,
// partners and notifications; an API-key client reads; deal rooms are followed over server-sent
// events, some of the streams replaced every minute. One row a minute: requests, errors, p50/p99
// latency and the server's resident memory.
// Goals (issue 11): 0 errors; memory flat within 10%.
import { readFileSync } from 'node:fs';
import autocannon, { type Context, type Request } from 'autocannon';
import { startBenchServer } from './start-bench-server.js';

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
if (!Number.isInteger(minutes) || minutes < 2) {
  console.error('SOAK_MINUTES must be a whole number of at least 2 (6 or more to judge memory)');
  process.exit(1);
}
const minuteMs = 60_000;
const traderConnections = 6;
const apiKeyConnections = 2;
const followedDeals = 4;
/** Open event streams; a quarter of them are closed and opened again every minute. */
const eventStreams = 16;
const memorySampleMs = 5_000;
const memoryGrowthLimit = 0.1;
/** The memory baseline: after warm-up (see the goal check at the end). */
const baselineMinute = 3;

const password = 'covenant-demo';
const parties = ['buyer@demo.covenant.test', 'seller@demo.covenant.test'] as const;

// The embedded default seeds the demo traders (production mode seeds no accounts). The hourly
// /api/v1 limits (1000 and 10 000 by the specification) would turn the traffic into 429s within a
// minute; they are raised through their settings, and every request is still counted against them.
const server = await startBenchServer({
  NODE_ENV: 'development',
  API_RATE_LIMIT_STANDARD: '1000000000',
  API_RATE_LIMIT_PREMIUM: '1000000000',
});

type Failure = { label: string; status: number; body: string };

/** Everything one minute of traffic produced. */
class MinuteTally {
  latencies: number[] = [];
  /** Latencies by request kind: which route slows down as the data grows. */
  byKind = new Map<string, number[]>();
  requests = 0;
  unexpected = 0;
  socketErrors = 0;
  streamErrors = 0;
  streamEvents = 0;
  memorySamples: number[] = [];
  failures: Failure[] = [];

  fail(failure: Failure) {
    this.unexpected += 1;
    if (this.failures.length < 5) this.failures.push(failure);
  }
}
let tally = new MinuteTally();
/**
 * The kind of the response autocannon reports next: it calls a request's onResponse and then, in
 * the same tick, emits 'response' with the latency.
 */
let answeredKind = '';

async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

const signIn = (email: string) =>
  call<{ access_token: string }>('POST', '/api/v1/auth/login', null, { email, password }).then(
    (session) => session.access_token,
  );

/** 1 ETH against 3,000 USDC, on the chain every mode runs. */
const newDeal = (counterpartyId: string) => ({
  asset_chain: 'ETH',
  asset_symbol: 'ETH',
  asset_amount: '1000000000000000000',
  stable_chain: 'ETH',
  stable_symbol: 'USDC',
  stable_amount: '3000000000',
  counterparty_id: counterpartyId,
});

/** Reads VmRSS (kB) of the server process. */
function residentMemoryKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match?.[1]) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]);
}

/**
 * One deal room followed live, as the web app's deal page does. Counts the events that arrive; a
 * stream that fails to open or ends before it is closed here is an error.
 */
function followDeal(dealId: string, token: string): { close: () => void } {
  const controller = new AbortController();
  let closing = false;
  const follow = async () => {
    const response = await fetch(`${server.origin}/api/v1/deals/${dealId}/events`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.body) {
      tally.streamErrors += 1;
      return;
    }
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      tally.streamEvents += decoder.decode(read.value, { stream: true }).split('event: deal').length - 1;
    }
    if (!closing) tally.streamErrors += 1;
  };
  follow().catch(() => {
    if (!closing) tally.streamErrors += 1;
  });
  return {
    close: () => {
      closing = true;
      controller.abort();
    },
  };
}

const pad = (text: string | number, width: number) => String(text).padStart(width);
const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

type Row = {
  minute: number;
  byKind: Map<string, number[]>;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  rssMb: number;
  streamEvents: number;
};
const rows: Row[] = [];
const allFailures: Failure[] = [];
let failed = false;

try {
  const tokens = await Promise.all(parties.map(signIn));
  const ids = await Promise.all(
    tokens.map((token) => call<{ id: string }>('GET', '/api/v1/user/profile', token).then((p) => p.id)),
  );
  const [buyerToken = '', sellerToken = ''] = tokens;
  const [buyerId = '', sellerId = ''] = ids;
  const followed: string[] = [];
  for (let i = 0; i < followedDeals; i++) {
    followed.push((await call<{ id: string }>('POST', '/api/v1/deals', buyerToken, newDeal(sellerId))).id);
  }
  const apiKey = (await call<{ key: string }>('POST', '/api/v1/api-keys', buyerToken, { name: 'soak' })).key;

  // A trader's visit: sign in, the deal list, a new deal and its page, a message in a followed deal
  // room and the room's messages, then profile, chains, partners and notifications.
  let visits = 0;
  const json = { 'content-type': 'application/json' };
  const signedIn = (context: Context) => ({ authorization: `Bearer ${String(context.token)}` });
  const expect2xx = (label: string, request: Request): Request => ({
    ...request,
    onResponse: (status, body, context) => {
      answeredKind = label;
      if (status < 200 || status > 299) tally.fail({ label, status, body: body.slice(0, 300) });
      request.onResponse?.(status, body, context);
    },
  });
  const traderVisit: Request[] = [
    expect2xx('POST /auth/login', {
      method: 'POST',
      path: '/api/v1/auth/login',
      setupRequest: (request, context) => {
        const party = visits++ % 2;
        context.party = party;
        context.room = followed[visits % followed.length];
        return { ...request, headers: json, body: JSON.stringify({ email: parties[party], password }) };
      },
      onResponse: (status, body, context) => {
        if (status === 200) context.token = (JSON.parse(body) as { access_token: string }).access_token;
      },
    }),
    expect2xx('GET /deals', {
      method: 'GET',
      path: '/api/v1/deals',
      setupRequest: (request, context) => ({ ...request, headers: signedIn(context) }),
    }),
    expect2xx('POST /deals', {
      method: 'POST',
      path: '/api/v1/deals',
      setupRequest: (request, context) => ({
        ...request,
        headers: { ...json, ...signedIn(context) },
        body: JSON.stringify(newDeal(context.party === 0 ? sellerId : buyerId)),
      }),
      onResponse: (status, body, context) => {
        if (status === 201) context.deal = (JSON.parse(body) as { id: string }).id;
      },
    }),
    expect2xx('GET /deals/:id', {
      method: 'GET',
      setupRequest: (request, context) => ({
        ...request,
        path: `/api/v1/deals/${String(context.deal ?? followed[0])}`,
        headers: signedIn(context),
      }),
    }),
    expect2xx('POST /deals/:id/messages', {
      method: 'POST',
      setupRequest: (request, context) => ({
        ...request,
        path: `/api/v1/deals/${String(context.room)}/messages`,
        headers: { ...json, ...signedIn(context) },
        body: JSON.stringify({ body: `Soak message ${visits}: wire the stable leg after noon.` }),
      }),
    }),
    expect2xx('GET /deals/:id/messages', {
      method: 'GET',
      setupRequest: (request, context) => ({
        ...request,
        path: `/api/v1/deals/${String(context.room)}/messages`,
        headers: signedIn(context),
      }),
    }),
    ...['/api/v1/user/profile', '/api/v1/chains', '/api/v1/partners', '/api/v1/notifications'].map((path) =>
      expect2xx(`GET ${path.replace('/api/v1', '')}`, {
        method: 'GET',
        path,
        setupRequest: (request, context) => ({ ...request, headers: signedIn(context) }),
      }),
    ),
  ];
  // A program with an API key: reads only.
  const apiKeyHeaders = { authorization: `Bearer ${apiKey}` };
  const apiKeyCalls: Request[] = [
    '/api/v1/deals',
    `/api/v1/deals/${followed[0]}`,
    `/api/v1/deals/${followed[1]}/messages`,
    '/api/v1/user/profile',
    '/api/v1/chains',
  ].map((path) =>
    expect2xx(`API key GET ${path.replace('/api/v1', '').replace(/[0-9a-f-]{36}/, ':id')}`, {
      method: 'GET',
      path,
      headers: apiKeyHeaders,
    }),
  );

  const openStream = (index: number) =>
    followDeal(followed[index % followed.length] ?? '', index % 2 === 0 ? buyerToken : sellerToken);
  const streams = Array.from({ length: eventStreams }, (_, index) => openStream(index));

  const pid = server.pid;
  console.log(
    `${minutes} minutes against the embedded server (PGlite), ${traderConnections} trader connections ` +
      `(sign-in, deals, messages, profile, chains, partners, notifications), ${apiKeyConnections} API-key ` +
      `connections, ${eventStreams} deal-room event streams (${eventStreams / 4} replaced each minute)\n`,
  );
  console.log(
    `${'minute'.padEnd(8)}${pad('requests', 10)}${pad('errors', 8)}${pad('p50', 8)}${pad('p99', 8)}${pad('RSS', 9)}${pad('SSE events', 12)}`,
  );
  for (let minute = 1; minute <= minutes; minute++) {
    tally = new MinuteTally();
    const current = tally;
    const sampler = setInterval(() => current.memorySamples.push(residentMemoryKb(pid)), memorySampleMs);
    const runs = [
      autocannon({
        url: server.origin,
        connections: traderConnections,
        duration: minuteMs / 1000,
        requests: traderVisit,
      }),
      autocannon({
        url: server.origin,
        connections: apiKeyConnections,
        duration: minuteMs / 1000,
        requests: apiKeyCalls,
      }),
    ];
    for (const run of runs) {
      run.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
        current.latencies.push(responseTime);
        const kind = current.byKind.get(answeredKind) ?? [];
        kind.push(responseTime);
        current.byKind.set(answeredKind, kind);
      });
    }
    const results = await Promise.all(runs);
    clearInterval(sampler);
    current.memorySamples.push(residentMemoryKb(pid));
    // Replace a quarter of the streams: subscriptions must be let go as they end.
    for (let i = 0; i < eventStreams / 4; i++) {
      const index = ((minute - 1) * (eventStreams / 4) + i) % eventStreams;
      streams[index]?.close();
      streams[index] = openStream(index);
    }

    current.requests = results.reduce((sum, result) => sum + result.requests.total, 0);
    current.socketErrors = results.reduce((sum, result) => sum + result.errors, 0);
    const sorted = current.latencies.toSorted((a, b) => a - b);
    const row: Row = {
      minute,
      byKind: current.byKind,
      requests: current.requests,
      errors: current.unexpected + current.socketErrors + current.streamErrors,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      // The minute's median sample: a single reading would catch the heap at a random point of its GC cycle.
      rssMb: median(current.memorySamples) / 1024,
      streamEvents: current.streamEvents,
    };
    rows.push(row);
    allFailures.push(...current.failures);
    console.log(
      `${String(minute).padEnd(8)}${pad(row.requests, 10)}${pad(row.errors, 8)}${pad(`${row.p50.toFixed(0)}ms`, 8)}` +
        `${pad(`${row.p99.toFixed(0)}ms`, 8)}${pad(`${row.rssMb.toFixed(0)} MB`, 9)}${pad(row.streamEvents, 12)}`,
    );
  }
  for (const stream of streams) stream.close();

  // Not a goal (the machine is shared, so absolute latencies move with its load), but the route
  // whose p50 grows most against the others is the one whose cost grows with the data.
  const first = rows[0];
  const last = rows.at(-1);
  if (first && last) {
    console.log(`\n${'p50 by request'.padEnd(34)}${pad('minute 1', 10)}${pad(`minute ${last.minute}`, 11)}`);
    for (const [kind, latencies] of first.byKind) {
      const at = (values: number[] | undefined) => `${median(values ?? []).toFixed(0)}ms`;
      console.log(`${kind.padEnd(34)}${pad(at(latencies), 10)}${pad(at(last.byKind.get(kind)), 11)}`);
    }
  }

  const errors = rows.reduce((sum, row) => sum + row.errors, 0);
  for (const failure of allFailures.slice(0, 10)) {
    console.error(`  ${failure.label} → HTTP ${failure.status} ${failure.body}`);
  }
  // Memory: the median of minutes 8–10 against minute 3. By minute 3 the JIT has compiled the hot
  // paths and PGlite's buffer cache, the pools and the token cache have filled, so what grows after
  // it is what the traffic leaves behind; a leak grows with every request, so it still shows over the
  // seven minutes after the baseline (it would pass the 10% goal only below about 1.5% a minute).
  // The median of three minutes, each itself a median of samples, keeps one GC cycle from deciding.
  // Runs shorter than 6 minutes have no minute 3 with three after it: their memory is shown against
  // minute 1, which is warm-up, and not judged.
  const judged = minutes >= baselineMinute + 3;
  const baselineRow = judged ? baselineMinute : 1;
  const tail = rows.slice(-Math.min(3, minutes - baselineRow));
  const baseline = rows[baselineRow - 1]?.rssMb ?? 0;
  const end = median(tail.map((row) => row.rssMb));
  const growth = (end - baseline) / baseline;
  console.log(
    `\nErrors: ${errors} (goal 0). Memory: minute ${baselineRow} ${baseline.toFixed(0)} MB, ` +
      `median of minutes ${tail[0]?.minute}–${minutes} ${end.toFixed(0)} MB, ` +
      `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}% ` +
      (judged ? `(goal ≤ +${memoryGrowthLimit * 100}%).` : '(not judged: shorter than 6 minutes).'),
  );
  if (errors > 0 || (judged && growth > memoryGrowthLimit)) failed = true;
} finally {
  await server.stop();
}
if (failed) process.exit(1);
