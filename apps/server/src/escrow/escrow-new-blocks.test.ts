import { openDatabase, schema } from '@covenant/db';
import type { EscrowStatusView } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';
import { escrowPassLock } from './escrow-engine.js';

// The engine's timer is set 10 minutes apart and no test asks for a pass: whatever the engine does
// here, a new block's arrival woke it (ADR 031).
const timerMs = 600_000;
let net: EscrowDevnet;

beforeAll(async () => {
  net = await startEscrowDevnet({ confirmations: 2, bitcoin: true, solana: true });
  net.app.escrow.start(timerMs);
  await until(
    async () => ['ETH', 'BTC', 'SOL'].every((chain) => net.app.escrow.subscribed(chain)),
    'every chain subscribed',
    30_000,
  );
}, 240_000);

afterAll(async () => {
  await net?.app.escrow.stop();
  await net?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => Promise<boolean>, what: string, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(200);
  }
}

async function cursorOf(chain: string): Promise<bigint | null> {
  const [cursor] = await net.database.db
    .select({ height: schema.chainScanCursors.scannedHeight })
    .from(schema.chainScanCursors)
    .where(eq(schema.chainScanCursors.chain, chain));
  return cursor?.height ?? null;
}

/** Puts the chain's watcher cursor at `height` (as escrow/create starts it at the tip). */
async function placeCursor(chain: string, height: bigint): Promise<void> {
  await net.database.db
    .insert(schema.chainScanCursors)
    .values({ chain, scannedHeight: height, scannedBlockRef: null, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: schema.chainScanCursors.chain,
      set: { scannedHeight: height, scannedBlockRef: null, updatedAt: new Date() },
    });
}

describe('the engine on new blocks', () => {
  it('funds a deal on Ethereum as the block that makes its deposits deep enough arrives; a pass held elsewhere is not bypassed', async () => {
    const assetAmount = 2_000_000_000_000_000_003n;
    const stableAmount = 6_000_000_003n;
    const dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDT',
      stableAmount,
    });
    const created = await net.call('POST', '/api/v1/escrow/create', net.buyer.token, { deal_id: dealId });
    expect(created.statusCode, created.body).toBe(201);
    const legs = created.json().legs as { leg: string; deposit_address: string }[];
    const addressOf = (leg: string) => legs.find((entry) => entry.leg === leg)!.deposit_address;
    const view = async () =>
      (await net.call('GET', `/api/v1/deals/${dealId}/escrow`, net.seller.token)).json() as EscrowStatusView;
    const status = async () =>
      (await net.call('GET', `/api/v1/deals/${dealId}`, net.buyer.token)).json().status as string;
    const payBoth = async () => {
      await net.pay(net.seller, 'WETH', addressOf('asset'), assetAmount);
      await net.pay(net.buyer, 'USDT', addressOf('stable'), stableAmount);
    };

    if (net.database.engine === 'postgres') {
      // Another server process is in a pass: the blocks of the deposits wake this one, which takes
      // its turn through the same lock and skips (the holder covers the work): nothing is seen.
      const otherProcess = await openDatabase({ engine: 'postgres', url: net.database.connectionString });
      try {
        await otherProcess.exclusively(escrowPassLock, async () => {
          await payBoth();
          await sleep(500);
          expect((await view()).legs.map((leg) => leg.pending)).toEqual(['0', '0']);
        });
      } finally {
        await otherProcess.close();
      }
    } else {
      // Each deposit's block wakes a pass that records it. The stable deposit, made last, is 1 block
      // deep (pending); the asset deposit may already be deep enough from the blocks after it.
      await payBoth();
      await until(
        async () => {
          const [asset, stable] = (await view()).legs;
          return asset!.pending !== '0' || asset!.received !== '0' ? stable!.pending !== '0' : false;
        },
        'both deposits pending',
        60_000,
      );
    }
    expect(await status()).toBe('terms_agreed');

    await net.mine(1);
    const minedAt = Date.now();
    // Far below the 10-minute timer (the windows only allow for a busy machine): the block's arrival did it.
    await until(async () => (await status()) === 'escrow_funded', 'escrow_funded after the block', 60_000);
    expect(Date.now() - minedAt).toBeLessThan(60_000);
    expect((await view()).legs.map((leg) => leg.received)).toEqual([
      assetAmount.toString(),
      stableAmount.toString(),
    ]);
  }, 180_000);

  it('watches Bitcoin as each block connects, through the node’s waitforblockheight', async () => {
    const bitcoin = net.bitcoin!;
    await bitcoin.mine(1);
    const tip = BigInt(await bitcoinBlockCount());
    await placeCursor('BTC', tip);
    const [mined] = await bitcoin.mine(1);
    expect(mined).toBeDefined();
    await until(async () => ((await cursorOf('BTC')) ?? 0n) >= tip + 1n, 'the BTC cursor at the new block');
  });

  it('watches Solana as each slot starts, through slotSubscribe', async () => {
    await placeCursor('SOL', 0n);
    await until(async () => ((await cursorOf('SOL')) ?? 0n) > 0n, 'the SOL cursor moving');
    const first = (await cursorOf('SOL'))!;
    // The devnet closes a slot every 40 ms: each one wakes a pass.
    await until(async () => (await cursorOf('SOL'))! > first, 'the SOL cursor moving again');
  });
});

async function bitcoinBlockCount(): Promise<number> {
  const { regtest } = net.bitcoin!;
  const response = await fetch(regtest.rpcUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${regtest.rpcUser}:${regtest.rpcPassword}`).toString('base64')}`,
    },
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'getblockcount', params: [] }),
  });
  return ((await response.json()) as { result: number }).result;
}
