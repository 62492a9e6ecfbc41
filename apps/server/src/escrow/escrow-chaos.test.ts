import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import {
  type Anvil,
  type Devnet,
  deployDevnet,
  startAnvil,
  startBitcoinRegtest,
  startSolanaDevnet,
} from '@covenant/devnets';
import type { EscrowStatusView } from '@covenant/domain';
import { base58, base64 } from '@scure/base';
import { type Address, createPublicClient, createTestClient, getAddress, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedLeg } from '../testing/http-deal-driver.js';
import {
  type HttpDealDriver,
  type HttpParty,
  httpDealDriver,
  type OpenedDeal,
} from '../testing/http-deal-driver.js';
import { passPort } from '../testing/pass-port.js';
import { signInStaffOverHttp } from '../testing/sign-in-staff-over-http.js';
import { type ServerProcess, startServerProcess } from '../testing/start-server-process.js';
import type { EscrowCrashPoint } from './escrow-crash-point.js';

// Chaos: the real server (a child process) on a real devnet and a real database (PGlite in DATA_DIR,
// or PostgreSQL with TEST_DB=postgres) is killed by SIGKILL at each step of settling a deal
// (ESCROW_CRASH_POINT), then started again on the same data without the crash point. Each deal
// must settle exactly once (one payout per escrow on-chain, the deal's final state right), and the
// money must add up to the base unit: on-chain balances of escrows, parties and the fee address,
// and the engine's own reconciliation (no staff alert).
//
// One anvil for the file and one deal per crash point, one after another. The fee is 1 bp of
// each leg, rounded down (packages/domain fees.ts).

/** The server's port in this file and anvil's, fixed across the restarts (3710, 3711; +100 on PostgreSQL). */
const serverPort = String(passPort(3710));
const anvilPort = passPort(3711);

let anvil: Anvil;
let devnet: Devnet;
let dataDir: string;
let postgres: Database | undefined;
let serverEnv: Record<string, string>;
let server: ServerProcess | undefined;
/** What the server that died last printed (the crash point names the payout it stopped at). */
let lastCrashOutput = '';
let driver: HttpDealDriver;
let buyer: HttpParty;
let seller: HttpParty;
const feeAddress = privateKeyToAccount(generatePrivateKey()).address;
/** The relayer that deploys escrows (its key is written to the server's DATA_DIR). */
let relayerAddress: Address;
/** Every deal of the file, for the final checks. */
const deals: { dealId: string; outcome: 'completed' | 'cancelled' }[] = [];

beforeAll(async () => {
  anvil = await startAnvil({ port: anvilPort });
  devnet = await deployDevnet({ rpcUrl: anvil.rpcUrl });
  dataDir = await mkdtemp(join(tmpdir(), 'covenant-chaos-'));
  if (process.env.TEST_DB === 'postgres') postgres = await createTestDatabase();
  // Against a node (ETH_RPC_URL) the operator funds the relayer: here the test does.
  const relayerKey = generatePrivateKey();
  relayerAddress = privateKeyToAccount(relayerKey).address;
  await mkdir(join(dataDir, 'keys'), { recursive: true, mode: 0o700 });
  await writeFile(join(dataDir, 'keys', 'ethereum-relayer.key'), `${relayerKey}\n`, { mode: 0o600 });
  await createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) }).setBalance({
    address: relayerAddress,
    value: 10n ** 20n,
  });
  const tokens = Object.fromEntries(
    Object.values(devnet.tokens).map((token) => [token.symbol, token.address]),
  ) as Record<string, Address>;
  serverEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: serverPort,
    DATA_DIR: dataDir,
    ETH_RPC_URL: anvil.rpcUrl,
    ETH_ESCROW_FACTORY: devnet.escrowFactory,
    ETH_FEE_ADDRESS: feeAddress,
    ETH_TOKENS: Object.entries(tokens)
      .map(([symbol, address]) => `${symbol}:${address}`)
      .join(','),
    ETH_CONFIRMATIONS: '1',
    ESCROW_POLL_MS: '300',
    // The server's own bcoin regtest node (DATA_DIR/bitcoin) mines only when asked: the Bitcoin case
    // mines its blocks itself, and the other cases leave the two cores to the engine.
    BTC_DEVNET_BLOCK_INTERVAL_MS: '0',
    // The server's own Solana devnet (DATA_DIR/solana): a slot every 100 ms.
    SOL_DEVNET_SLOT_INTERVAL_MS: '100',
    // The test polls the API; the hourly limit is not under test here.
    API_RATE_LIMIT_STANDARD: '100000',
    ...(postgres ? { DATABASE_URL: postgres.connectionString, SEED_DEMO_DATA: 'true' } : {}),
  };
  driver = httpDealDriver({
    url: () => {
      if (!server) throw new Error('no server running');
      return server.url;
    },
    rpcUrl: anvil.rpcUrl,
    tokens,
    describe: () => server?.output() ?? '',
  });
}, 120_000);

afterAll(async () => {
  await server?.kill();
  await anvil?.stop();
  await postgres?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Starts the server on the file's data, set to crash at `point` when given. */
async function start(point?: EscrowCrashPoint): Promise<void> {
  // Two minutes: a start (three devnets, migrations) on two cores busy with other suites can take one.
  server = await startServerProcess(point ? { ...serverEnv, ESCROW_CRASH_POINT: point } : serverEnv, {
    startTimeoutMs: 120_000,
  });
}

/** Stops the running server the ordinary way (SIGTERM) before the next one starts. */
async function stop(): Promise<void> {
  if (!server) return;
  const exited = server.exited;
  server.child.kill('SIGTERM');
  expect((await exited).code, server.output()).toBe(0);
  server = undefined;
}

/** Waits for the server to die at `point`. */
async function expectCrashAt(point: EscrowCrashPoint): Promise<void> {
  const running = server!;
  const exit = await Promise.race([
    running.exited,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000)),
  ]);
  expect(exit, running.output()).toEqual({ code: null, signal: 'SIGKILL' });
  expect(running.output()).toContain(`crash point ${point}: killing the process`);
  lastCrashOutput = running.output();
  server = undefined;
}

/** What each address holds of the deal's two tokens, to compare before and after. */
async function balancesOf(symbols: [string, string], addresses: Record<string, Address>) {
  const entries = await Promise.all(
    Object.entries(addresses).flatMap(([name, address]) =>
      symbols.map(async (symbol) => [`${name} ${symbol}`, await driver.balance(symbol, address)] as const),
    ),
  );
  return Object.fromEntries(entries) as Record<string, bigint>;
}

/** The deal's audit trail: verified, and the engine's closing entry written exactly once. */
async function expectClosedOnce(dealId: string, action: 'escrow_settled' | 'escrow_refunded') {
  const audit = await driver.expectOk<{ verified: boolean; entries: { action: string }[] }>(
    'GET',
    `/api/v1/deals/${dealId}/audit`,
    buyer.token,
  );
  expect(audit.verified).toBe(true);
  const closing = audit.entries.filter(
    (entry) => entry.action === 'escrow_settled' || entry.action === 'escrow_refunded',
  );
  expect(closing.map((entry) => entry.action)).toEqual([action]);
}

const fee = (amount: bigint) => amount / 10_000n;

/** How many transactions the relayer has had mined (its next nonce). */
async function relayerNonce(): Promise<number> {
  const chain = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl), cacheTime: 0 });
  return chain.getTransactionCount({ address: relayerAddress, blockTag: 'latest' });
}

/**
 * `POST /escrow/create` on a server set to die once it has signed and stored an escrow's
 * deployment, before sending it: the request dies with the server and nothing is on-chain. After
 * the restart the engine sends the stored deployment, the same request again opens the escrow, and
 * the relayer has sent each leg's deployment exactly once.
 */
async function createEscrowAcrossCrash(dealId: string): Promise<CreatedLeg[]> {
  const nonceBefore = await relayerNonce();
  await expect(
    driver.call('POST', '/api/v1/escrow/create', buyer.token, { deal_id: dealId }),
  ).rejects.toThrow();
  await expectCrashAt('after-relayer-store');
  expect(lastCrashOutput).toMatch(/deployment \S+ for 0x[0-9a-fA-F]{40} on ETH stored, not broadcast/);
  expect(await relayerNonce()).toBe(nonceBefore);

  await start();
  const escrow = await driver.expectOk<{ legs: CreatedLeg[] }>('POST', '/api/v1/escrow/create', buyer.token, {
    deal_id: dealId,
  });
  expect(escrow.legs).toHaveLength(2);
  expect(await relayerNonce()).toBe(nonceBefore + escrow.legs.length);
  return escrow.legs;
}

/** Each leg's books as the server shows them: what it received and where its payout sent it. */
function booksOf(view: EscrowStatusView) {
  return view.legs.map((leg) => ({
    leg: leg.leg,
    received: BigInt(leg.received),
    transfers: (leg.payout?.transfers ?? []).map((transfer) => [
      transfer.kind,
      getAddress(transfer.to),
      BigInt(transfer.amount),
    ]),
  }));
}

interface SettlementCase {
  point: Extract<
    EscrowCrashPoint,
    'after-relayer-store' | 'after-cosign' | 'after-submit' | 'before-confirmation'
  >;
  assetSymbol: string;
  assetAmount: bigint;
  stableSymbol: string;
  stableAmount: bigint;
  /** What the chain shows at the crash: how many of the two escrows paid out already. */
  paidAtCrash: number;
}

const settlements: SettlementCase[] = [
  // 2.5 WETH against 7,777.777777 USDC, killed as the escrow opens: the first leg's deployment is
  // stored, not sent; nothing can be paid yet.
  {
    point: 'after-relayer-store',
    assetSymbol: 'WETH',
    assetAmount: 2_500_000_000_000_000_000n,
    stableSymbol: 'USDC',
    stableAmount: 7_777_777_777n,
    paidAtCrash: 0,
  },
  // 1.000000000000012345 WETH against 3,000.123457 USDT: nothing sent yet at the crash.
  {
    point: 'after-cosign',
    assetSymbol: 'WETH',
    assetAmount: 1_000_000_000_000_012_345n,
    stableSymbol: 'USDT',
    stableAmount: 3_000_123_457n,
    paidAtCrash: 0,
  },
  // 0.12345679 WBTC against 7,000.000001 USDC: the first leg's payout is mined, not recorded.
  {
    point: 'after-submit',
    assetSymbol: 'WBTC',
    assetAmount: 12_345_679n,
    stableSymbol: 'USDC',
    stableAmount: 7_000_000_001n,
    paidAtCrash: 1,
  },
  // 0.333333333333333333 WETH against 999.999999 USDC: both payouts mined, the deal not completed.
  {
    point: 'before-confirmation',
    assetSymbol: 'WETH',
    assetAmount: 333_333_333_333_333_333n,
    stableSymbol: 'USDC',
    stableAmount: 999_999_999n,
    paidAtCrash: 2,
  },
];

describe('kill -9 at each settlement step, then a restart on the same data', { timeout: 120_000 }, () => {
  for (const scenario of settlements) {
    it(`settles a deal killed ${scenario.point} exactly once, to the base unit`, async () => {
      const { assetSymbol, assetAmount, stableSymbol, stableAmount } = scenario;
      await start(scenario.point);
      buyer ??= await driver.signIn('buyer@demo.covenant.test');
      seller ??= await driver.signIn('seller@demo.covenant.test');
      const crashAtOpening = scenario.point === 'after-relayer-store';
      const deal: OpenedDeal = await driver.openDeal(
        buyer,
        seller,
        scenario,
        crashAtOpening ? createEscrowAcrossCrash : undefined,
      );
      const watched = {
        buyerPayout: deal.buyerPayout,
        sellerPayout: deal.sellerPayout,
        fee: feeAddress,
        assetEscrow: deal.asset,
        stableEscrow: deal.stable,
      };
      const symbols: [string, string] = [assetSymbol, stableSymbol];
      const before = await balancesOf(symbols, watched);

      await driver.pay(seller, assetSymbol, deal.asset, assetAmount);
      await driver.pay(buyer, stableSymbol, deal.stable, stableAmount);
      await driver.waitUntil(
        'escrow_funded',
        async () => (await driver.dealStatus(buyer, deal.dealId)) === 'escrow_funded',
      );
      await driver.approve(seller, deal.dealId, 'asset');
      await driver.approve(buyer, deal.dealId, 'stable', !crashAtOpening);
      if (!crashAtOpening) {
        await expectCrashAt(scenario.point);
        const paidOut = [
          (await driver.settledEvents(deal.asset)).length,
          (await driver.settledEvents(deal.stable)).length,
        ];
        expect(paidOut.reduce((sum, count) => sum + count, 0)).toBe(scenario.paidAtCrash);
        await start();
      }
      await driver.waitUntil(
        'the deal to complete after the restart',
        async () => (await driver.dealStatus(buyer, deal.dealId)) === 'completed',
        60_000,
      );
      const after = await balancesOf(symbols, watched);
      const delta = (key: string) => after[key]! - before[key]!;
      expect({
        buyerPaid: delta(`buyerPayout ${assetSymbol}`),
        sellerPaid: delta(`sellerPayout ${stableSymbol}`),
        assetFee: delta(`fee ${assetSymbol}`),
        stableFee: delta(`fee ${stableSymbol}`),
        assetEscrowHolds: after[`assetEscrow ${assetSymbol}`],
        stableEscrowHolds: after[`stableEscrow ${stableSymbol}`],
      }).toEqual({
        buyerPaid: assetAmount - fee(assetAmount),
        sellerPaid: stableAmount - fee(stableAmount),
        assetFee: fee(assetAmount),
        stableFee: fee(stableAmount),
        assetEscrowHolds: 0n,
        stableEscrowHolds: 0n,
      });
      const view = await driver.escrowView(buyer, deal.dealId);
      expect(view.status).toBe('settled');
      expect(view.legs.map((leg) => [leg.leg, leg.state, leg.payout?.status])).toEqual([
        ['asset', 'released', 'confirmed'],
        ['stable', 'released', 'confirmed'],
      ]);
      // The server's books say what the chain says: each leg received its amount and paid it out,
      // to the payout address and the fee address, to the base unit.
      expect(booksOf(view)).toEqual([
        {
          leg: 'asset',
          received: assetAmount,
          transfers: [
            ['payout', deal.buyerPayout, assetAmount - fee(assetAmount)],
            ['fee', feeAddress, fee(assetAmount)],
          ],
        },
        {
          leg: 'stable',
          received: stableAmount,
          transfers: [
            ['payout', deal.sellerPayout, stableAmount - fee(stableAmount)],
            ['fee', feeAddress, fee(stableAmount)],
          ],
        },
      ]);
      await expectClosedOnce(deal.dealId, 'escrow_settled');

      // More passes change nothing: no payout is sent twice.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await driver.settledEvents(deal.asset)).length).toBe(1);
      expect((await driver.settledEvents(deal.stable)).length).toBe(1);
      expect(await balancesOf(symbols, watched)).toEqual(after);
      deals.push({ dealId: deal.dealId, outcome: 'completed' });
      await stop();
      // Two starts of the server, each up to two minutes on two busy cores.
    }, 300_000);
  }

  it('settles a BTC-for-USDT deal killed between co-signing and broadcasting the bitcoin payout: the same transaction, once', async () => {
    // 0.87654321 BTC against 60,000.000003 USDT. The seller's bitcoin comes from the devnet's wallet
    // (POST /dev/fund), the buyer's USDT from its own wallet.
    const assetAmount = 87_654_321n;
    const stableAmount = 60_000_000_003n;
    // A block every half second on whichever server is running (none while it is down).
    const miner = setInterval(() => {
      if (server) driver.mineBitcoin(1).catch(() => {});
    }, 500);
    try {
      await settleBitcoinDealKilledAfterCosign(assetAmount, stableAmount);
    } finally {
      clearInterval(miner);
    }
  });

  async function settleBitcoinDealKilledAfterCosign(assetAmount: bigint, stableAmount: bigint) {
    await start('after-cosign');
    buyer ??= await driver.signIn('buyer@demo.covenant.test');
    seller ??= await driver.signIn('seller@demo.covenant.test');
    const deal = await driver.openBitcoinDeal(buyer, seller, {
      assetSymbol: 'BTC',
      assetAmount,
      stableSymbol: 'USDT',
      stableAmount,
    });
    const bitcoinFeeAddress = (await driver.bitcoinChainEntry()).fee_address;
    const usdtBefore = await balancesOf(['USDT', 'USDT'], {
      sellerPayout: deal.sellerPayout,
      fee: feeAddress,
    });
    const funded = await driver.expectOk<{ transaction_hash: string }>(
      'POST',
      '/api/v1/dev/fund',
      seller.token,
      {
        deal_id: deal.dealId,
        leg: 'asset',
      },
    );
    const deposit = (await driver.bitcoinOutputs(funded.transaction_hash)).find(
      (output) => output.address === deal.asset,
    )!;
    expect(deposit.amount).toBe(assetAmount);
    await driver.pay(buyer, 'USDT', deal.stable, stableAmount);
    await driver.waitUntil(
      'escrow_funded',
      async () => (await driver.dealStatus(buyer, deal.dealId)) === 'escrow_funded',
      60_000,
    );
    const heightBeforeCrash = await driver.bitcoinRpc<number>('getblockcount');
    const bitcoinNode = new URL((await driver.bitcoinChainEntry()).rpc_url!);
    const signed = await driver.approveBitcoin(seller, deal.dealId, 'asset');
    await driver.approve(buyer, deal.dealId, 'stable', true);
    await expectCrashAt('after-cosign');
    // The legs go in the order the database lists them: if the USDT leg was co-signed first, a
    // start with the same crash point sends it and then stops at the bitcoin leg.
    for (let starts = 0; !lastCrashOutput.includes('asset leg on BTC') && starts < 2; starts++) {
      await start('after-cosign');
      await expectCrashAt('after-cosign');
    }
    expect(lastCrashOutput).toContain('asset leg on BTC stored, not broadcast');

    // The server's bcoin node died with it (its IPC channel closed), so it no longer answers...
    await driver.waitUntil('the dead server’s Bitcoin node to stop answering', async () => {
      const answered = await fetch(bitcoinNode.origin, { method: 'POST' }).then(
        () => true,
        () => false,
      );
      return !answered;
    });
    // ...and its chain is intact in DATA_DIR/bitcoin: the deposit is there, unspent, and the
    // payout transaction (signed and stored by the server) was never mined.
    const offline = await startBitcoinRegtest({ dataDir: join(dataDir, 'bitcoin') });
    try {
      const offlineRpc = async <T>(method: string, params: unknown[]): Promise<T> => {
        const response = await fetch(offline.rpcUrl, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${offline.rpcUser}:${offline.rpcPassword}`).toString('base64')}`,
          },
          body: JSON.stringify({ id: 1, method, params }),
        });
        return ((await response.json()) as { result: T }).result;
      };
      expect(await offlineRpc<number>('getblockcount', [])).toBeGreaterThanOrEqual(heightBeforeCrash);
      const unspent = await offlineRpc<{ value: number } | null>('gettxout', [
        funded.transaction_hash,
        deposit.vout,
      ]);
      expect(unspent).not.toBeNull();
      expect(await offlineRpc<unknown>('getrawtransaction', [signed.txid, true])).toBeNull();
    } finally {
      await offline.stop();
    }

    await start();
    await driver.waitUntil(
      'the deal to complete after the restart',
      async () => (await driver.dealStatus(buyer, deal.dealId)) === 'completed',
      90_000,
    );
    // The transaction the server stored before dying is the one the chain holds: the same txid.
    const view = await driver.escrowView(buyer, deal.dealId);
    expect(view.status).toBe('settled');
    expect(driver.legOf(view, 'asset').payout?.transaction_hash).toBe(signed.txid);
    expect(await driver.bitcoinConfirmations(signed.txid)).toBeGreaterThanOrEqual(2);
    expect(await driver.bitcoinRpc<unknown>('gettxout', [funded.transaction_hash, deposit.vout])).toBeNull();
    const payout = await driver.bitcoinRpc<{ vin: { txid: string; vout: number }[] }>('getrawtransaction', [
      signed.txid,
      true,
    ]);
    expect(payout.vin.map((input) => [input.txid, input.vout])).toEqual([
      [funded.transaction_hash, deposit.vout],
    ]);
    // Every satoshi where it belongs: 87,654,321 in; floor(87,654,321 / 10,000) = 8,765 to the fee
    // address; the buyer 87,654,321 − 8,765 − the network fee the seller was shown; the escrow empty.
    const networkFee = BigInt(signed.summary.network_fee);
    const outputs = await driver.bitcoinOutputs(signed.txid);
    expect(outputs.map(({ address, amount }) => [address, amount])).toEqual([
      [deal.buyerPayout, assetAmount - 8_765n - networkFee],
      [bitcoinFeeAddress, 8_765n],
    ]);
    expect(await driver.bitcoinBalance(deal.buyerPayout)).toBe(assetAmount - 8_765n - networkFee);
    expect(await driver.bitcoinBalance(deal.asset)).toBe(0n);
    // The USDT leg, once: 60,000,000,003 in, floor(60,000,000,003 / 10,000) = 6,000,000 to the fee address.
    const usdtAfter = await balancesOf(['USDT', 'USDT'], {
      sellerPayout: deal.sellerPayout,
      fee: feeAddress,
    });
    expect(usdtAfter['sellerPayout USDT']! - usdtBefore['sellerPayout USDT']!).toBe(
      stableAmount - 6_000_000n,
    );
    expect(usdtAfter['fee USDT']! - usdtBefore['fee USDT']!).toBe(6_000_000n);
    expect(await driver.balance('USDT', deal.stable)).toBe(0n);
    expect((await driver.settledEvents(deal.stable)).length).toBe(1);
    expect(view.legs.map((leg) => [leg.leg, leg.state, leg.payout?.status])).toEqual([
      ['asset', 'released', 'confirmed'],
      ['stable', 'released', 'confirmed'],
    ]);
    await expectClosedOnce(deal.dealId, 'escrow_settled');
    deals.push({ dealId: deal.dealId, outcome: 'completed' });
    await stop();
  }

  it('settles a SOL-for-USDT deal killed between co-signing and broadcasting the Solana payout: the same bytes, once', async () => {
    // 4.000000123 SOL against 12,345.678901 USDT. The seller's SOL comes from the devnet's faucet
    // (POST /dev/fund), the buyer's USDT from its own wallet.
    const assetAmount = 4_000_000_123n;
    const stableAmount = 12_345_678_901n;
    await start('after-cosign');
    // Fresh sessions with a Solana key each (registering one is a sensitive action): the cases after
    // this one go on with these parties and their new Ethereum escrow keys.
    buyer = await driver.connectSolana(await driver.signIn('buyer@demo.covenant.test'));
    seller = await driver.connectSolana(await driver.signIn('seller@demo.covenant.test'));
    const deal = await driver.openSolanaDeal(buyer, seller, {
      assetSymbol: 'SOL',
      assetAmount,
      stableSymbol: 'USDT',
      stableAmount,
    });
    const solanaFeeAddress = (await driver.solanaChainEntry()).fee_address;
    const feeLamportsBefore = await driver.solanaLamports(solanaFeeAddress);
    const usdtBefore = await balancesOf(['USDT', 'USDT'], {
      sellerPayout: deal.sellerPayout,
      fee: feeAddress,
    });
    await driver.expectOk('POST', '/api/v1/dev/fund', seller.token, { deal_id: deal.dealId, leg: 'asset' });
    await driver.pay(buyer, 'USDT', deal.stable, stableAmount);
    await driver.waitUntil(
      'escrow_funded',
      async () => (await driver.dealStatus(buyer, deal.dealId)) === 'escrow_funded',
      60_000,
    );
    const custody = (await driver.escrowView(seller, deal.dealId)).legs.find((leg) => leg.leg === 'asset')!
      .custody as { nonce_account: string };
    const signed = await driver.approveSolana(seller, deal.dealId, 'asset');
    // The message's lifetime is the leg's durable nonce: bytes 3.. are the account count, the
    // account keys, then the nonce value (legacy message).
    const message = base64.decode(signed.payload.data);
    const keyCount = message[3]!;
    expect(keyCount).toBeLessThan(128);
    const nonceInMessage = base58.encode(message.slice(4 + keyCount * 32, 4 + keyCount * 32 + 32));
    await driver.approve(buyer, deal.dealId, 'stable', true);
    await expectCrashAt('after-cosign');
    // The legs go in the order the database lists them: if the USDT leg was co-signed first, a
    // start with the same crash point sends it and then stops at the Solana leg.
    for (let starts = 0; !lastCrashOutput.includes('asset leg on SOL') && starts < 2; starts++) {
      await start('after-cosign');
      await expectCrashAt('after-cosign');
    }
    expect(lastCrashOutput).toContain('asset leg on SOL stored, not broadcast');

    // The server's Solana devnet died with it; its ledger is in DATA_DIR/solana. Opened offline:
    // the deposit is in the wrapped-SOL account, the buyer's payout wallet is empty, and the nonce
    // the stored transaction uses is still the account's (nothing advanced it: never sent).
    const offline = await startSolanaDevnet({ dataDir: join(dataDir, 'solana'), slotIntervalMs: 100 });
    try {
      const offlineRpc = async <T>(method: string, params: unknown[]): Promise<T> => {
        const response = await fetch(offline.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        return ((await response.json()) as { result: T }).result;
      };
      const depositAccount = await offlineRpc<{ value: { lamports: number } | null }>('getAccountInfo', [
        deal.asset,
        { encoding: 'base64', commitment: 'processed' },
      ]);
      // Rent-exempt reserve of a token account (165 bytes) + the deposit.
      const rent = BigInt(await offlineRpc<number>('getMinimumBalanceForRentExemption', [165]));
      expect(BigInt(depositAccount.value?.lamports ?? 0)).toBe(rent + assetAmount);
      const payoutWallet = await offlineRpc<{ value: number }>('getBalance', [
        deal.buyerPayout,
        { commitment: 'processed' },
      ]);
      expect(payoutWallet.value).toBe(0);
      const nonce = await offlineRpc<{
        value: { data: { parsed: { info: { blockhash: string } } } } | null;
      }>('getAccountInfo', [custody.nonce_account, { encoding: 'jsonParsed', commitment: 'processed' }]);
      expect(nonce.value?.data.parsed.info.blockhash).toBe(nonceInMessage);
    } finally {
      await offline.stop();
    }

    await start();
    await driver.waitUntil(
      'the deal to complete after the restart',
      async () => (await driver.dealStatus(buyer, deal.dealId)) === 'completed',
      90_000,
    );
    const view = await driver.escrowView(buyer, deal.dealId);
    expect(view.status).toBe('settled');
    const payoutSignature = driver.legOf(view, 'asset').payout?.transaction_hash;
    expect(payoutSignature).toBeTruthy();
    await driver.waitUntil('the payout to be finalized', async () => {
      const statuses = await driver.solanaRpc<{ value: ({ confirmationStatus: string } | null)[] }>(
        'getSignatureStatuses',
        [[payoutSignature], { searchTransactionHistory: true }],
      );
      return statuses.value[0]?.confirmationStatus === 'finalized';
    });
    // What landed is the transaction the server stored before dying: the message the seller
    // signed, byte for byte (same nonce), under the seller's one signature, not one signed again.
    const landed = await driver.solanaRpc<{ meta: { err: unknown }; transaction: [string, 'base64'] }>(
      'getTransaction',
      [payoutSignature, { encoding: 'base64', commitment: 'finalized' }],
    );
    expect(landed.meta.err).toBeNull();
    const wire = base64.decode(landed.transaction[0]);
    const signatureCount = wire[0]!;
    expect(signatureCount).toBe(3);
    const signatures = Array.from({ length: signatureCount }, (_, index) =>
      base58.encode(wire.slice(1 + index * 64, 1 + (index + 1) * 64)),
    );
    expect(signatures[0]).toBe(payoutSignature);
    expect(signatures).toContain(base58.encode(signed.signature));
    expect(base64.encode(wire.slice(1 + signatureCount * 64))).toBe(signed.payload.data);
    // Exactly one transaction ever touched the buyer's payout wallet, and it holds exactly its due:
    // 4,000,000,123 lamports in; fee floor(4,000,000,123 / 10,000) = 400,000 to the SOL fee address;
    // the buyer 4,000,000,123 − 400,000 = 3,999,600,123.
    const touching = await driver.solanaRpc<{ signature: string }[]>('getSignaturesForAddress', [
      deal.buyerPayout,
      { commitment: 'finalized' },
    ]);
    expect(touching.map((entry) => entry.signature)).toEqual([payoutSignature]);
    expect(await driver.solanaLamports(deal.buyerPayout)).toBe(3_999_600_123n);
    expect((await driver.solanaLamports(solanaFeeAddress)) - feeLamportsBefore).toBe(400_000n);
    expect(await driver.solanaAccountExists(deal.asset)).toBe(false);
    // The USDT leg, once: 12,345,678,901 in, floor(12,345,678,901 / 10,000) = 1,234,567 to the fee address.
    const usdtAfter = await balancesOf(['USDT', 'USDT'], {
      sellerPayout: deal.sellerPayout,
      fee: feeAddress,
    });
    expect(usdtAfter['sellerPayout USDT']! - usdtBefore['sellerPayout USDT']!).toBe(
      stableAmount - 1_234_567n,
    );
    expect(usdtAfter['fee USDT']! - usdtBefore['fee USDT']!).toBe(1_234_567n);
    expect(await driver.balance('USDT', deal.stable)).toBe(0n);
    expect((await driver.settledEvents(deal.stable)).length).toBe(1);
    // The server's books: each leg received its amount and paid it out, to the base unit.
    expect(
      view.legs.map((leg) => ({
        leg: leg.leg,
        state: leg.state,
        payout: leg.payout?.status,
        received: leg.received,
        transfers: leg.payout?.transfers.map((transfer) => [
          transfer.kind,
          leg.leg === 'stable' ? getAddress(transfer.to) : transfer.to,
          transfer.amount,
        ]),
      })),
    ).toEqual([
      {
        leg: 'asset',
        state: 'released',
        payout: 'confirmed',
        received: assetAmount.toString(),
        transfers: [
          ['payout', deal.buyerPayout, '3999600123'],
          ['fee', solanaFeeAddress, '400000'],
        ],
      },
      {
        leg: 'stable',
        state: 'released',
        payout: 'confirmed',
        received: stableAmount.toString(),
        transfers: [
          ['payout', deal.sellerPayout, (stableAmount - 1_234_567n).toString()],
          ['fee', feeAddress, '1234567'],
        ],
      },
    ]);
    await expectClosedOnce(deal.dealId, 'escrow_settled');
    // More passes change nothing: the payout is not sent again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(
      (
        await driver.solanaRpc<{ signature: string }[]>('getSignaturesForAddress', [
          deal.buyerPayout,
          { commitment: 'confirmed' },
        ])
      ).length,
    ).toBe(1);
    expect(await driver.solanaLamports(deal.buyerPayout)).toBe(3_999_600_123n);
    deals.push({ dealId: deal.dealId, outcome: 'completed' });
    await stop();
    // Up to four starts of the server, each a minute on two busy cores.
  }, 400_000);

  it('refunds a cancelled deal killed mid-refund exactly once, to the base unit', async () => {
    // 0.5 WETH deposited in full by the seller, 1,234.567891 of 2,469.135782 USDC by the buyer; the
    // buyer cancels. The seller's refund is mined when the server dies, the buyer's is still to come.
    const assetAmount = 500_000_000_000_000_000n;
    const stableAmount = 2_469_135_782n;
    const stablePaid = 1_234_567_891n;
    await start('mid-refund');
    buyer ??= await driver.signIn('buyer@demo.covenant.test');
    seller ??= await driver.signIn('seller@demo.covenant.test');
    const deal = await driver.openDeal(buyer, seller, {
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
    });
    const watched = {
      buyerWallet: buyer.wallet,
      sellerWallet: seller.wallet,
      fee: feeAddress,
      assetEscrow: deal.asset,
      stableEscrow: deal.stable,
    };
    await driver.pay(seller, 'WETH', deal.asset, assetAmount);
    await driver.pay(buyer, 'USDC', deal.stable, stablePaid);
    await driver.waitUntil('both deposits to be seen', async () => {
      const view = await driver.escrowView(buyer, deal.dealId);
      return (
        driver.legOf(view, 'asset').state === 'funded' &&
        driver.legOf(view, 'stable').state === 'partially_funded'
      );
    });
    // The deposits come from the wallets: what they hold now is what they get back to.
    const before = await balancesOf(['WETH', 'USDC'], watched);
    const cancelled = await driver.expectOk('POST', `/api/v1/deals/${deal.dealId}/cancel`, buyer.token, {
      reason: 'The counterparty asked to unwind',
    });
    expect(cancelled.status).toBe('cancelled');
    await driver.approve(seller, deal.dealId, 'asset', true);
    await expectCrashAt('mid-refund');
    expect((await driver.settledEvents(deal.asset)).length).toBe(1);
    expect((await driver.settledEvents(deal.stable)).length).toBe(0);

    await start();
    await driver.approve(buyer, deal.dealId, 'stable');
    await driver.waitUntil(
      'the escrow to be refunded after the restart',
      async () => (await driver.escrowView(buyer, deal.dealId)).status === 'refunded',
      60_000,
    );
    const after = await balancesOf(['WETH', 'USDC'], watched);
    expect({
      sellerBack: after['sellerWallet WETH']! - before['sellerWallet WETH']!,
      buyerBack: after['buyerWallet USDC']! - before['buyerWallet USDC']!,
      feeWeth: after['fee WETH']! - before['fee WETH']!,
      feeUsdc: after['fee USDC']! - before['fee USDC']!,
      assetEscrowHolds: after['assetEscrow WETH'],
      stableEscrowHolds: after['stableEscrow USDC'],
    }).toEqual({
      sellerBack: assetAmount,
      buyerBack: stablePaid,
      feeWeth: 0n,
      feeUsdc: 0n,
      assetEscrowHolds: 0n,
      stableEscrowHolds: 0n,
    });
    expect((await driver.settledEvents(deal.asset)).length).toBe(1);
    expect((await driver.settledEvents(deal.stable)).length).toBe(1);
    const view = await driver.escrowView(buyer, deal.dealId);
    expect(view.legs.map((leg) => [leg.leg, leg.state, leg.payout?.kind, leg.payout?.status])).toEqual([
      ['asset', 'refunded', 'refund', 'confirmed'],
      ['stable', 'refunded', 'refund', 'confirmed'],
    ]);
    expect(booksOf(view)).toEqual([
      { leg: 'asset', received: assetAmount, transfers: [['refund', seller.wallet, assetAmount]] },
      { leg: 'stable', received: stablePaid, transfers: [['refund', buyer.wallet, stablePaid]] },
    ]);
    expect(await driver.dealStatus(buyer, deal.dealId)).toBe('cancelled');
    await expectClosedOnce(deal.dealId, 'escrow_refunded');
    deals.push({ dealId: deal.dealId, outcome: 'cancelled' });
  });

  it("leaves the engine's reconciliation nothing to report, and every deal in its final state", async () => {
    // The server of the last case is still running; its staff view holds every alert ever raised.
    const admin = await signInStaffOverHttp(server!.url, 'admin@demo.covenant.test');
    const alerts = await driver.expectOk<{ data: { kind: string; message: string }[] }>(
      'GET',
      '/api/v1/staff/alerts',
      admin,
    );
    expect(alerts.data).toEqual([]);
    for (const { dealId, outcome } of deals) expect(await driver.dealStatus(buyer, dealId)).toBe(outcome);
    expect(deals).toHaveLength(settlements.length + 3);
    await stop();
  });
});
