import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import {
  type Anvil,
  type BitcoinRegtest,
  type Devnet,
  deployDevnet,
  type SolanaDevnet,
  startAnvil,
  startBitcoinRegtest,
  startSolanaDevnet,
} from '@covenant/devnets';
import { Redis } from 'ioredis';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { type Address, createTestClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HttpDealDriver,
  type HttpParty,
  httpDealDriver,
  type OpenedDeal,
} from './testing/http-deal-driver.js';
import { type ServerProcess, startServerProcess } from './testing/start-server-process.js';

// Two replicas of the real server (child processes on ports 3720 and 3721) behind one PostgreSQL
// database and one Redis, on one Ethereum node (anvil on 3722) and one Bitcoin node (a bcoin regtest
// given as BTC_RPC_URL: each replica's embedded node would want the shared DATA_DIR/bitcoin for
// itself, and LevelDB lets one process open it) and one Solana devnet (SOL_RPC_URL: embedded, each
// replica would run a chain of its own in the shared DATA_DIR/solana), as ADR 017 describes a deployment
// of several: the settings each must share are given to both, the data directory (uploaded files,
// the escrow key files) is one shared volume, and the JWT and file keys come from settings.
// PGlite serves one process only, so this file runs in the PostgreSQL pass (`npm run test:pg`,
// TEST_DB=postgres); vitest.config.ts leaves it out of the PGlite pass.

const ports = { a: '3720', b: '3721', anvil: 3722, receiver: 3723, balancer: 3724, c: '3725' };
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisKeyPrefix = `covenant-replicas-${randomUUID().slice(0, 8)}:`;

let anvil: Anvil;
let bitcoin: BitcoinRegtest;
let solana: SolanaDevnet;
let devnet: Devnet;
let dataDir: string;
let database: Database;
let env: Record<string, string>;
let replicaA: ServerProcess;
let replicaB: ServerProcess;
/** Where the driver's requests go now. */
let target: () => ServerProcess;
let driver: HttpDealDriver;
let receiver: Server;
/** Every webhook body the receiver got, as sent. */
const delivered: { id: string; type: string; data: { leg?: string } }[] = [];
const feeAddress = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.engine !== 'postgres') {
    throw new Error('two replicas need PostgreSQL: run this file with TEST_DB=postgres');
  }
  anvil = await startAnvil({ port: ports.anvil });
  devnet = await deployDevnet({ rpcUrl: anvil.rpcUrl });
  bitcoin = await startBitcoinRegtest();
  solana = await startSolanaDevnet({ slotIntervalMs: 100 });
  dataDir = await mkdtemp(join(tmpdir(), 'covenant-replicas-'));
  const relayerKey = generatePrivateKey();
  await mkdir(join(dataDir, 'keys'), { recursive: true, mode: 0o700 });
  await writeFile(join(dataDir, 'keys', 'ethereum-relayer.key'), `${relayerKey}\n`, { mode: 0o600 });
  await createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) }).setBalance({
    address: privateKeyToAccount(relayerKey).address,
    value: 10n ** 20n,
  });
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const tokens = Object.fromEntries(
    Object.values(devnet.tokens).map((token) => [token.symbol, token.address]),
  ) as Record<string, Address>;
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      delivered.push(JSON.parse(body) as (typeof delivered)[number]);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(ports.receiver, '127.0.0.1', resolve));
  env = {
    NODE_ENV: 'test',
    // The site's one origin (a load balancer's, in front of both): access tokens name it as issuer.
    PUBLIC_URL: `http://127.0.0.1:${ports.balancer}`,
    // JSON lines at debug: each engine pass and each job a replica works is in its log.
    LOG_LEVEL: 'debug',
    LOG_FORMAT: 'json',
    DATA_DIR: dataDir,
    DATABASE_URL: database.connectionString,
    SEED_DEMO_DATA: 'true',
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: redisKeyPrefix,
    AUTH_JWT_PRIVATE_JWK: JSON.stringify({ ...jwk, alg: 'ES256', kid: await calculateJwkThumbprint(jwk) }),
    FILE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ETH_RPC_URL: anvil.rpcUrl,
    BTC_RPC_URL: bitcoin.rpcUrl,
    BTC_RPC_USER: bitcoin.rpcUser,
    BTC_RPC_PASSWORD: bitcoin.rpcPassword,
    BITCOIN_NETWORK: 'regtest',
    ETH_ESCROW_FACTORY: devnet.escrowFactory,
    ETH_FEE_ADDRESS: feeAddress,
    ETH_TOKENS: Object.entries(tokens)
      .map(([symbol, address]) => `${symbol}:${address}`)
      .join(','),
    ETH_CONFIRMATIONS: '1',
    SOL_RPC_URL: solana.rpcUrl,
    SOL_NETWORK: 'devnet',
    SOL_USDC_MINT: solana.mints.USDC,
    SOL_USDT_MINT: solana.mints.USDT,
    SOL_CONFIRMATIONS: '1',
    ESCROW_POLL_MS: '300',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  // Together, as a deployment starts them: they take turns at the migrations and the demo seed.
  [replicaA, replicaB] = await Promise.all([
    startServerProcess({ ...env, PORT: ports.a }),
    startServerProcess({ ...env, PORT: ports.b }),
  ]);
  target = () => replicaA;
  driver = httpDealDriver({
    url: () => target().url,
    rpcUrl: anvil.rpcUrl,
    tokens,
    describe: () =>
      `replica A:\n${replicaA.output().slice(-4000)}\nreplica B:\n${replicaB.output().slice(-4000)}`,
  });
}, 180_000);

afterAll(async () => {
  await replicaA?.kill();
  await replicaB?.kill();
  await anvil?.stop();
  await bitcoin?.stop();
  await solana?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${redisKeyPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The JSON lines a replica logged, parsed. */
function logLines(replica: ServerProcess): Record<string, unknown>[] {
  return replica
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('two replicas behind one PostgreSQL and one Redis', { timeout: 120_000 }, () => {
  let buyer: HttpParty;
  let seller: HttpParty;
  let deal: OpenedDeal;

  it('accept on one replica a session created on the other, and end it on both at sign-out', async () => {
    const login = await driver.call<{ access_token: string; refresh_token: string }>(
      'POST',
      '/api/v1/auth/login',
      null,
      { email: 'unverified@demo.covenant.test', password: 'covenant-demo' },
      replicaA.url,
    );
    expect(login.status).toBe(200);
    const { access_token: token, refresh_token: refreshToken } = login.json!;
    const onB = await driver.call('GET', '/api/v1/deals', token, undefined, replicaB.url);
    expect(onB.status).toBe(200);
    // The refresh token issued by A rotates on B, and B's new token works on A.
    const refreshed = await fetch(`${replicaB.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
    expect(refreshed.status).toBe(200);
    const rotated = ((await refreshed.json()) as { access_token: string }).access_token;
    expect((await driver.call('GET', '/api/v1/deals', rotated, undefined, replicaA.url)).status).toBe(200);
    // Signed out on B, the session is refused on A at once.
    const logout = await fetch(`${replicaB.url}/auth/v1/logout?scope=global`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rotated}` },
    });
    expect(logout.status).toBe(204);
    expect((await driver.call('GET', '/api/v1/deals', rotated, undefined, replicaA.url)).status).toBe(401);
    // The signing key came from AUTH_JWT_PRIVATE_JWK, not from a file both happen to read.
    expect(existsSync(join(dataDir, 'keys', 'jwt-signing-key.json'))).toBe(false);
  });

  it('count requests to either replica against one rate limit', async () => {
    const login = await driver.call<{ access_token: string }>(
      'POST',
      '/api/v1/auth/login',
      null,
      { email: 'unverified@demo.covenant.test', password: 'covenant-demo' },
      replicaB.url,
    );
    const token = login.json!.access_token;
    const remaining: number[] = [];
    for (const replica of [replicaA, replicaB, replicaA, replicaB, replicaB, replicaA]) {
      const response = await driver.call('GET', '/api/v1/deals', token, undefined, replica.url);
      expect(response.status).toBe(200);
      remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
    }
    const first = remaining[0]!;
    expect(remaining).toEqual([first, first - 1, first - 2, first - 3, first - 4, first - 5]);
  });

  it('deliver a deal room event to a client following the deal on the other replica', async () => {
    buyer = await driver.signIn('buyer@demo.covenant.test', replicaA.url);
    seller = await driver.signIn('seller@demo.covenant.test', replicaA.url);
    const hook = await driver.call(
      'POST',
      '/api/v1/webhooks',
      buyer.token,
      {
        url: `http://127.0.0.1:${ports.receiver}/covenant`,
        events: ['deal.created', 'escrow.funded', 'deal.completed'],
      },
      replicaB.url,
    );
    expect(hook.status, JSON.stringify(hook.json)).toBe(201);
    deal = await driver.openDeal(buyer, seller, {
      assetSymbol: 'WETH',
      assetAmount: 750_000_000_000_000_001n,
      stableSymbol: 'USDC',
      stableAmount: 2_250_000_003n,
    });

    const controller = new AbortController();
    const stream = await fetch(`${replicaB.url}/api/v1/deals/${deal.dealId}/events`, {
      headers: { authorization: `Bearer ${seller.token}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const readUntil = async (text: string) => {
      const deadline = Date.now() + 10_000;
      while (!received.includes(text)) {
        if (Date.now() > deadline) throw new Error(`no "${text}" on the stream; got:\n${received}`);
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended; got:\n${received}`);
        received += decoder.decode(value, { stream: true });
      }
    };
    // B subscribes before it writes its first line.
    await readUntil('retry:');
    const posted = await driver.call(
      'POST',
      `/api/v1/deals/${deal.dealId}/messages`,
      buyer.token,
      { body: 'Sent through replica A' },
      replicaA.url,
    );
    expect(posted.status, JSON.stringify(posted.json)).toBe(201);
    await readUntil('event: deal\ndata: {"kind":"message"}');
    controller.abort();
  });

  it("refuse to start a replica whose platform escrow key is not the open escrows' one", async () => {
    // A replica given a data directory of its own would generate a platform key of its own.
    const otherDir = await mkdtemp(join(tmpdir(), 'covenant-replica-c-'));
    try {
      await expect(
        startServerProcess({ ...env, PORT: ports.c, DATA_DIR: otherDir }, { startTimeoutMs: 60_000 }),
      ).rejects.toThrow(/is not the one open escrows were made with/);
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('finish a deal on the other replica when one is killed mid-deal, settling it exactly once', async () => {
    const assetAmount = 750_000_000_000_000_001n;
    const stableAmount = 2_250_000_003n;
    const fee = (amount: bigint) => amount / 10_000n;
    await driver.pay(seller, 'WETH', deal.asset, assetAmount);
    await driver.pay(buyer, 'USDC', deal.stable, stableAmount);
    await driver.waitUntil(
      'escrow_funded',
      async () => (await driver.dealStatus(buyer, deal.dealId)) === 'escrow_funded',
    );
    await driver.approve(seller, deal.dealId, 'asset');
    // Replica A dies with the deal half approved; the buyer goes on through B.
    expect(await replicaA.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    target = () => replicaB;
    await driver.approve(buyer, deal.dealId, 'stable');
    await driver.waitUntil(
      'the deal to complete on replica B',
      async () => (await driver.dealStatus(buyer, deal.dealId)) === 'completed',
      60_000,
    );
    expect({
      buyerPaid: await driver.balance('WETH', deal.buyerPayout),
      sellerPaid: await driver.balance('USDC', deal.sellerPayout),
      wethFee: await driver.balance('WETH', feeAddress),
      usdcFee: await driver.balance('USDC', feeAddress),
      assetEscrowHolds: await driver.balance('WETH', deal.asset),
      stableEscrowHolds: await driver.balance('USDC', deal.stable),
      assetPayouts: (await driver.settledEvents(deal.asset)).length,
      stablePayouts: (await driver.settledEvents(deal.stable)).length,
    }).toEqual({
      buyerPaid: assetAmount - fee(assetAmount),
      sellerPaid: stableAmount - fee(stableAmount),
      wethFee: fee(assetAmount),
      usdcFee: fee(stableAmount),
      assetEscrowHolds: 0n,
      stableEscrowHolds: 0n,
      assetPayouts: 1,
      stablePayouts: 1,
    });
    const audit = await driver.expectOk<{ verified: boolean; entries: { action: string }[] }>(
      'GET',
      `/api/v1/deals/${deal.dealId}/audit`,
      buyer.token,
    );
    expect(audit.verified).toBe(true);
    expect(
      audit.entries.filter((entry) => entry.action.startsWith('escrow_')).map((entry) => entry.action),
    ).toEqual(['escrow_opened', 'escrow_funded', 'escrow_settled']);
  });

  it('ran each escrow pass on one replica at a time and each job on one replica only', async () => {
    // Each webhook event was one job, worked by one replica: delivered once.
    await driver.waitUntil('deal.completed to be delivered', async () =>
      delivered.some((body) => body.type === 'deal.completed'),
    );
    // One event per leg funded: two escrow.funded, told apart by the leg.
    expect(delivered.map((body) => `${body.type} ${body.data.leg ?? ''}`.trim()).sort()).toEqual([
      'deal.completed',
      'deal.created',
      'escrow.funded asset',
      'escrow.funded stable',
    ]);
    expect(new Set(delivered.map((body) => body.id)).size).toBe(delivered.length);

    // The pg-boss schedule makes one escrow-pass job a minute, whichever replicas run: wait for one.
    const scheduled = async () =>
      (
        await database.executeSql(
          `select name, state, singleton_on, created_on, started_on, completed_on from pgboss.job
            where name in ('escrow-pass', '__pgboss__send-it') order by created_on`,
          [],
        )
      ).rows as { name: string; state: string }[];
    const deadline = Date.now() + 90_000;
    while (!(await scheduled()).some((row) => row.name === 'escrow-pass' && row.state === 'completed')) {
      if (Date.now() > deadline) {
        throw new Error(
          `no scheduled escrow-pass job was worked:\n${JSON.stringify(await scheduled(), null, 1)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const perMinute = await database.executeSql(
      `select date_trunc('minute', created_on) as minute, count(*)::int as n
         from pgboss.job where name = 'escrow-pass' group by 1`,
      [],
    );
    for (const row of perMinute.rows as { n: number }[]) expect(row.n).toBe(1);

    const logs = { a: logLines(replicaA), b: logLines(replicaB) };
    const worked = (lines: Record<string, unknown>[]) =>
      lines.filter((line) => line.msg === 'working job').map((line) => String(line.id));
    const jobsA = worked(logs.a);
    const jobsB = worked(logs.b);
    expect(jobsA.length + jobsB.length).toBeGreaterThanOrEqual(4);
    expect(new Set([...jobsA, ...jobsB]).size).toBe(jobsA.length + jobsB.length);

    // Both replicas ran the engine, never at the same time (the pass lock).
    const passes = (lines: Record<string, unknown>[], replica: string) =>
      lines
        .filter((line) => line.msg === 'escrow pass')
        .map((line) => ({ replica, startedAt: Number(line.startedAt), endedAt: Number(line.endedAt) }));
    const passesA = passes(logs.a, 'A');
    const passesB = passes(logs.b, 'B');
    expect(passesA.length).toBeGreaterThan(0);
    expect(passesB.length).toBeGreaterThan(0);
    const all = [...passesA, ...passesB].sort((x, y) => x.startedAt - y.startedAt);
    for (let index = 1; index < all.length; index++) {
      expect(all[index]!.startedAt, JSON.stringify([all[index - 1], all[index]])).toBeGreaterThanOrEqual(
        all[index - 1]!.endedAt,
      );
    }
  });
});
