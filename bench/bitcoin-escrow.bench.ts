// The escrow engine on Bitcoin: a real bcoin regtest node over the JSON-RPC the production adapter
// uses against Bitcoin Core, the whole server in-process as the escrow tests run it.
// 1. Deposit to `escrow_funded`: from the block that gives a deal's Bitcoin deposit its required
//    depth (2) being mined to the deal reading `escrow_funded` through the API, read on each of the
//    deal's events as the deal room's stream pushes them (`wait-for-deal-status.ts`). The engine runs a pass as each block
//    connects (its `waitforblockheight` long poll, ADR 031); its timer is BENCH_ESCROW_POLL_MS apart
//    (default 60 s, the safety net), so no latency here can come from it. The deal's other leg (USDT
//    on Ethereum) is entered as funded in its ledger: only the Bitcoin side is measured. Goal:
//    median and max ≤ 100 ms after the block.
// 2. The watcher's time per block with 10 and with 10,000 open Bitcoin deals (10,000 legs waiting on
//    the node): `watchChain` reads the same blocks holding the same few deposits each time, the runs
//    with 10 and with 10,000 interleaved. Goal: ratio ≤ 1.2, the cost per block does not grow with
//    open legs (one indexed lookup per block).
// The database is the local PostgreSQL server, as a deployment's is (a throw-away database, as the
// tests make with TEST_DB=postgres); TEST_DB=pglite runs it on PGlite in memory, the embedded default
// of `npm start`, whose WebAssembly engine shares the engine's thread (docs/performance.md).
// The machine is shared: times are medians of repeated runs, and only ratios are judged.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { startBitcoinRegtest } from '@covenant/devnets';
import { BITCOIN_ADDRESS_FORMATS, multisigCustody } from '@covenant/escrow/bitcoin';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { Address } from '@scure/btc-signer';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { buildTestApp } from '../apps/server/src/build-test-app.js';
import type { ChainInfo } from '../apps/server/src/chains/chain-registry.js';
import { createEscrowChains } from '../apps/server/src/escrow/escrow-chains.js';
import type { EscrowEngineDeps } from '../apps/server/src/escrow/escrow-engine-deps.js';
import { createFilePlatformSigner } from '../apps/server/src/escrow/platform-signer.js';
import { watchChain } from '../apps/server/src/escrow/watch-chain.js';
import { loadFileStore } from '../apps/server/src/files/load-file-store.js';
import { createDeliverWebhookJob } from '../apps/server/src/jobs/deliver-webhook-job.js';
import { createTestTrader } from '../apps/server/src/testing/create-test-trader.js';
import { reportFundingLatencies, reportRow } from './report-row.js';
import { waitForDealStatus } from './wait-for-deal-status.js';

process.env.TEST_DB ??= 'postgres';
const pollMs = Number(process.env.BENCH_ESCROW_POLL_MS ?? 60_000);
const latencyGoalMs = 100;
const fundedDeals = 5;
const warmUpDeals = 1;
const fewOpenDeals = 10;
const manyOpenDeals = 10_000;
const watcherRuns = 15;
const watcherGoal = 1.2;
const assetAmount = 12_345_678n; // 0.12345678 BTC
const stableAmount = 3_000_000_007n; // 3,000.000007 USDT
const regtestFormat = BITCOIN_ADDRESS_FORMATS.regtest;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const publicKey = () => hex.encode(secp256k1.getPublicKey(randomBytes(32), true));
/** A P2WPKH address of a fresh key: a payout or refund address, or a payment elsewhere. */
const randomAddress = () => Address(regtestFormat).encode({ type: 'wpkh', hash: randomBytes(20) });

const regtest = await startBitcoinRegtest();
const info: ChainInfo = {
  chain: 'BTC',
  tokens: [{ symbol: 'BTC', decimals: 8, address: null }],
  confirmations: 2,
  feeAddress: '',
  explorerUrl: null,
  rpcUrl: regtest.rpcUrl,
  devnet: true,
  bitcoin: {
    network: 'regtest',
    rpcUser: regtest.rpcUser,
    rpcPassword: regtest.rpcPassword,
    feeRateSatPerVbyte: { min: 2, max: 500 },
    devWallet: { fund: regtest.fund },
  },
};
const database = await createTestDatabase();
const testApp = await buildTestApp({
  database,
  chains: { chains: [info], stop: async () => {} },
  env: { ESCROW_POLL_MS: '0' },
  jobs: { send: async () => {} },
});
const { app } = testApp;
const buyer = await createTestTrader(app);
const seller = await createTestTrader(app);
const db = database.db;

/**
 * Agreed deals with open escrows straight into the database: a Bitcoin asset leg waiting for its
 * deposit at a 2-of-3 P2WSH address of three fresh keys, and a USDT leg on Ethereum. With
 * `stableFunded`, the USDT leg's deposit is in its ledger, confirmed. Returns deal ids and the
 * Bitcoin legs' deposit addresses.
 */
async function insertOpenDeals(count: number, stableFunded: boolean) {
  const now = new Date();
  const deadline = new Date(now.getTime() + 24 * 3600_000);
  const opened: { dealId: string; escrowId: string; depositAddress: string }[] = [];
  for (let start = 0; start < count; start += 500) {
    const size = Math.min(500, count - start);
    const deals = await db
      .insert(schema.deals)
      .values(
        Array.from({ length: size }, () => ({
          buyerId: buyer.id,
          sellerId: seller.id,
          assetChain: 'BTC',
          assetSymbol: 'BTC',
          assetAmount: assetAmount.toString(),
          stableChain: 'ETH',
          stableSymbol: 'USDT',
          stableAmount: stableAmount.toString(),
          status: 'terms_agreed' as const,
          fundingDeadlineHours: 24,
          acceptedTermsVersion: 1,
          termsHash: 'bench',
          termsAgreedAt: now,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning({ id: schema.deals.id });
    const escrows = await db
      .insert(schema.escrows)
      .values(deals.map((deal) => ({ dealId: deal.id, createdAt: now, updatedAt: now })))
      .returning({ id: schema.escrows.id, dealId: schema.escrows.dealId });
    const common = { requiredConfirmations: 2, deadline, createdAt: now, updatedAt: now };
    const rows = escrows.flatMap((escrow) => {
      const signers = { buyer: publicKey(), seller: publicKey(), platform: publicKey() };
      const depositAddress = multisigCustody(signers, regtestFormat).address;
      opened.push({ dealId: escrow.dealId, escrowId: escrow.id, depositAddress });
      return [
        {
          ...common,
          escrowId: escrow.id,
          leg: 'asset' as const,
          chain: 'BTC',
          symbol: 'BTC',
          tokenAddress: null,
          requiredAmount: assetAmount.toString(),
          depositAddress,
          depositorRefundAddress: randomAddress(),
          receiverPayoutAddress: randomAddress(),
          buyerSigner: signers.buyer,
          sellerSigner: signers.seller,
          platformSigner: signers.platform,
        },
        {
          ...common,
          escrowId: escrow.id,
          leg: 'stable' as const,
          chain: 'ETH',
          symbol: 'USDT',
          tokenAddress: `0x${randomBytes(20).toString('hex')}`,
          requiredAmount: stableAmount.toString(),
          depositAddress: `0x${randomBytes(20).toString('hex')}`,
          depositorRefundAddress: `0x${randomBytes(20).toString('hex')}`,
          receiverPayoutAddress: `0x${randomBytes(20).toString('hex')}`,
          buyerSigner: `0x${randomBytes(20).toString('hex')}`,
          sellerSigner: `0x${randomBytes(20).toString('hex')}`,
          platformSigner: `0x${randomBytes(20).toString('hex')}`,
        },
      ];
    });
    await db.insert(schema.escrowLegs).values(rows);
    if (stableFunded) {
      await db.insert(schema.escrowLedgerEntries).values(
        escrows.map((escrow) => ({
          escrowId: escrow.id,
          leg: 'stable' as const,
          chain: 'ETH',
          kind: 'deposit' as const,
          amount: stableAmount.toString(),
          txRef: `0x${randomBytes(32).toString('hex')}`,
          position: 0,
          blockRef: `0x${randomBytes(32).toString('hex')}`,
          blockHeight: 1n,
          confirmations: 2,
          status: 'confirmed' as const,
          createdAt: now,
          updatedAt: now,
        })),
      );
    }
  }
  return opened;
}

async function deleteOpenDeals(dealIds: string[]): Promise<void> {
  for (let start = 0; start < dealIds.length; start += 500) {
    const ids = dealIds.slice(start, start + 500);
    const escrows = await db
      .select({ id: schema.escrows.id })
      .from(schema.escrows)
      .where(inArray(schema.escrows.dealId, ids));
    const escrowIds = escrows.map((escrow) => escrow.id);
    await db
      .delete(schema.escrowLedgerEntries)
      .where(inArray(schema.escrowLedgerEntries.escrowId, escrowIds));
    await db.delete(schema.escrowLegs).where(inArray(schema.escrowLegs.escrowId, escrowIds));
    await db.delete(schema.escrows).where(inArray(schema.escrows.id, escrowIds));
    await db.delete(schema.deals).where(inArray(schema.deals.id, ids));
  }
}

/** The deal's status as its buyer reads it through the API. */
async function dealStatus(dealId: string): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/v1/deals/${dealId}`,
    headers: { authorization: `Bearer ${buyer.token}` },
  });
  if (response.statusCode !== 200) throw new Error(`GET deal: HTTP ${response.statusCode} ${response.body}`);
  return response.json().status;
}

/** Deposit-to-funded latencies in ms, one per deal, the server's engine woken by each new block. */
async function measureFundingLatency(): Promise<number[]> {
  const latencies: number[] = [];
  // The watcher starts from the chain's current tip, as escrow/create does.
  await app.escrow.tick();
  const tip = BigInt((await rpc<number>('getblockcount')) - 1);
  await db
    .insert(schema.chainScanCursors)
    .values({ chain: 'BTC', scannedHeight: tip, scannedBlockRef: await rpc('getblockhash', [Number(tip)]) })
    .onConflictDoNothing();
  app.escrow.start(pollMs);
  try {
    const subscribedBy = performance.now() + 30_000;
    while (!app.escrow.subscribed('BTC')) {
      if (performance.now() > subscribedBy) throw new Error('no new-block subscription on BTC');
      await sleep(10);
    }
    // The first deal warms up (JIT, the statements' first plans, the node clients); it is not counted.
    for (let round = -warmUpDeals; round < fundedDeals; round++) {
      const [deal] = await insertOpenDeals(1, true);
      if (!deal) throw new Error('no deal');
      await regtest.fund(deal.depositAddress, assetAmount);
      await regtest.mine(1);
      // The block woke a pass, which records the deposit 1 block deep: pending, not funded.
      const pendingBy = performance.now() + 10_000;
      while (!(await hasPendingDeposit(deal.escrowId))) {
        if (performance.now() > pendingBy) throw new Error('the deposit block woke no pass');
        await sleep(5);
      }
      if ((await dealStatus(deal.dealId)) === 'escrow_funded') {
        throw new Error('funded before the deposit was deep enough');
      }
      // The next block comes at a random moment.
      await sleep(100 + Math.random() * 250);
      await regtest.mine(1);
      const minedAt = performance.now();
      await waitForDealStatus(app.dealEvents, deal.dealId, 'escrow_funded', () => dealStatus(deal.dealId));
      if (round >= 0) latencies.push(performance.now() - minedAt);
    }
  } finally {
    await app.escrow.stop();
  }
  return latencies;
}

async function hasPendingDeposit(escrowId: string): Promise<boolean> {
  const entries = await db
    .select({ status: schema.escrowLedgerEntries.status })
    .from(schema.escrowLedgerEntries)
    .where(
      and(eq(schema.escrowLedgerEntries.escrowId, escrowId), eq(schema.escrowLedgerEntries.leg, 'asset')),
    );
  return entries.some((entry) => entry.status === 'pending');
}

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(regtest.rpcUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${regtest.rpcUser}:${regtest.rpcPassword}`).toString('base64')}`,
    },
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
  });
  const reply = (await response.json()) as { result: T; error: { message: string } | null };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}

/** `watchChain` over the same blocks and deposits with 10 and with 10,000 open deals; ms per block. */
async function measureWatcher() {
  const dataDir = await mkdtemp(join(tmpdir(), 'covenant-bench-bitcoin-'));
  const now = () => new Date();
  const signer = await createFilePlatformSigner(dataDir);
  const chains = await createEscrowChains(
    { chains: [{ ...info }], stop: async () => {} },
    dataDir,
    app.log,
    database,
    signer,
  );
  const chain = chains.get('BTC');
  if (!chain) throw new Error('no BTC chain');
  const deps: EscrowEngineDeps = {
    db,
    locks: database,
    now,
    logger: app.log,
    chains,
    settlementWindowHours: 72,
    feeBumpAfterSeconds: 180,
    deploymentWaitSeconds: 30,
    fileStore: await loadFileStore({ dataDir, fileEncryptionKey: undefined }),
    webhooks: {
      db,
      now,
      jobs: { send: async () => {} },
      deliverJob: createDeliverWebhookJob({ db, now, allowPrivateTargets: false }),
    },
  };
  try {
    const few = await insertOpenDeals(fewOpenDeals, false);
    const watched = few.slice(0, 3);
    // The scanned blocks: three deposits to open legs, three payments elsewhere, then empty blocks.
    await regtest.mine(1);
    const fromHeight = BigInt(await rpc<number>('getblockcount'));
    const fromRef = await rpc<string>('getblockhash', [Number(fromHeight)]);
    const deposits: string[] = [];
    for (const leg of watched) {
      deposits.push(await regtest.fund(leg.depositAddress, assetAmount));
      await regtest.fund(randomAddress(), assetAmount);
      await regtest.mine(1);
    }
    await regtest.mine(3);
    const toHeight = BigInt(await rpc<number>('getblockcount'));
    const blocks = Number(toHeight - fromHeight);

    const passOverTheBlocks = async (): Promise<number> => {
      await db.delete(schema.escrowLedgerEntries).where(inArray(schema.escrowLedgerEntries.txRef, deposits));
      await db
        .insert(schema.chainScanCursors)
        .values({ chain: 'BTC', scannedHeight: fromHeight, scannedBlockRef: fromRef, updatedAt: now() })
        .onConflictDoUpdate({
          target: schema.chainScanCursors.chain,
          set: { scannedHeight: fromHeight, scannedBlockRef: fromRef, updatedAt: now() },
        });
      const started = performance.now();
      const changed = await watchChain(deps, chain);
      const elapsed = performance.now() - started;
      const expected = watched.map((leg) => leg.escrowId).sort();
      if (JSON.stringify([...changed].sort()) !== JSON.stringify(expected)) {
        throw new Error(
          `the watcher found ${changed.length} legs' deposits, not the ${expected.length} paid`,
        );
      }
      return elapsed / blocks;
    };

    // The 9,990 other legs are switched in and out between runs (moved to another chain name and
    // back, one statement each way, then vacuumed), so both counts are measured under the same load
    // of this shared machine, run after run.
    const more = await insertOpenDeals(manyOpenDeals - fewOpenDeals, false);
    const moreEscrows = more.map((deal) => deal.escrowId);
    const park = async (chainName: string) => {
      for (let start = 0; start < moreEscrows.length; start += 1000) {
        await db
          .update(schema.escrowLegs)
          .set({ chain: chainName })
          .where(
            and(
              inArray(schema.escrowLegs.escrowId, moreEscrows.slice(start, start + 1000)),
              eq(schema.escrowLegs.leg, 'asset'),
            ),
          );
      }
      await db.execute(sql`vacuum analyze escrow_legs`);
    };
    const fewTimes: number[] = [];
    const many: number[] = [];
    await park('BTC-parked');
    await passOverTheBlocks(); // warm-up: JIT, connections
    for (let run = 0; run < watcherRuns; run++) {
      fewTimes.push(await passOverTheBlocks());
      await park('BTC');
      many.push(await passOverTheBlocks());
      await park('BTC-parked');
    }
    await deleteOpenDeals(more.map((deal) => deal.dealId));
    return { blocks, few: median(fewTimes), many: median(many) };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

let failed = false;
try {
  const engine = process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';
  console.log(
    `${engine}, bcoin regtest, 2 confirmations, a pass on each new block (timer every ${pollMs} ms as the safety net)\n`,
  );

  const latencies = await measureFundingLatency();
  if (
    !reportFundingLatencies({
      chain: 'BTC',
      title: `Bitcoin deposit deep enough → escrow_funded, ${fundedDeals} deals`,
      latencies,
      goalMs: latencyGoalMs,
      after: 'block',
    })
  )
    failed = true;

  const watcher = await measureWatcher();
  const ratio = watcher.many / watcher.few;
  console.log(`watcher over the same ${watcher.blocks} blocks (3 deposits to open legs, 3 other payments):`);
  console.log(`  ${String(fewOpenDeals).padStart(6)} open deals  ${watcher.few.toFixed(2)} ms per block`);
  console.log(`  ${String(manyOpenDeals).padStart(6)} open deals  ${watcher.many.toFixed(2)} ms per block`);
  console.log(
    `  ratio ${ratio.toFixed(2)} (goal ≤ ${watcherGoal}: the cost per block does not grow with open legs)`,
  );
  reportRow({
    measure: 'BTC watcher per block, 10,000 vs 10 open deals',
    value: ratio.toFixed(2),
    goal: `≤ ${watcherGoal}`,
    pass: ratio <= watcherGoal,
  });
  if (ratio > watcherGoal) {
    console.error(`FAIL: the Bitcoin watcher's time per block grew ${ratio.toFixed(2)}× with open deals`);
    failed = true;
  }
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await testApp.close();
  await database.close();
  await regtest.stop();
}
process.exit(failed ? 1 : 0);
