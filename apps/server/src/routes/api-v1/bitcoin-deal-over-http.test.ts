import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { hex } from '@scure/base';
import * as btc from '@scure/btc-signer';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpDealDriver, type HttpParty, httpDealDriver } from '../../testing/http-deal-driver.js';
import { passPort } from '../../testing/pass-port.js';
import { signInStaffOverHttp } from '../../testing/sign-in-staff-over-http.js';
import { type ServerProcess, startServerProcess } from '../../testing/start-server-process.js';

// A BTC-for-USDT deal end to end through the public API of the real server (a child process, as
// `npm run serve` starts it, with its embedded anvil and bcoin regtest node), by two API users who
// hold their own keys: each registers a Bitcoin public key and an Ethereum address with its
// session, then trades with an API key (read and trade scopes). The bitcoin is paid out by a PSBT the
// seller signs, the USDT by the buyer's EIP-712 signature; the chains are read as an auditor would.
// Runs on PGlite (DATA_DIR) and on PostgreSQL (TEST_DB=postgres).

const serverPort = String(passPort(3730));

let dataDir: string;
let postgres: Database | undefined;
let server: ServerProcess | undefined;
let driver: HttpDealDriver;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'covenant-btc-http-'));
  if (process.env.TEST_DB === 'postgres') postgres = await createTestDatabase();
  server = await startServerProcess({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: serverPort,
    DATA_DIR: dataDir,
    // A block every half second: the 2 confirmations of a deposit arrive within the test's patience.
    BTC_DEVNET_BLOCK_INTERVAL_MS: '500',
    ESCROW_POLL_MS: '300',
    API_RATE_LIMIT_STANDARD: '100000',
    ...(postgres ? { DATABASE_URL: postgres.connectionString, SEED_DEMO_DATA: 'true' } : {}),
  });
  const url = server.url;
  // The embedded Ethereum devnet's node and tokens, as a local client learns them.
  const chains = (await (await fetch(`${url}/api/v1/chains`)).json()) as {
    data: { chain: string; rpc_url?: string; tokens: { symbol: string; address: string | null }[] }[];
  };
  const ethereum = chains.data.find((chain) => chain.chain === 'ETH');
  if (!ethereum?.rpc_url) throw new Error(`no local Ethereum devnet: ${JSON.stringify(chains)}`);
  driver = httpDealDriver({
    url: () => url,
    rpcUrl: ethereum.rpc_url,
    tokens: Object.fromEntries(
      ethereum.tokens.flatMap((token) => (token.address ? [[token.symbol, token.address as Address]] : [])),
    ),
    describe: () => server?.output().slice(-6000) ?? '',
  });
}, 180_000);

afterAll(async () => {
  await server?.kill();
  await postgres?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a BTC-for-USDT deal through the public API', { timeout: 180_000 }, () => {
  it('pays the buyer amount − fee − network fee in bitcoin and the fee address exactly amount / 10,000', async () => {
    // 1.23456789 BTC against 75,000.000001 USDT.
    const assetAmount = 123_456_789n;
    const stableAmount = 75_000_000_001n;
    const sessions = {
      buyer: await driver.signIn('buyer@demo.covenant.test'),
      seller: await driver.signIn('seller@demo.covenant.test'),
    };
    // From here on each party is a program holding an API key: every call below is one it may make.
    const buyer: HttpParty = await driver.withApiKey(sessions.buyer);
    const seller: HttpParty = await driver.withApiKey(sessions.seller);
    expect(buyer.token).toMatch(/^cov_live_/);
    // An API key may not register signing keys (a sensitive action): the session did.
    const refused = await driver.call('POST', '/api/v1/wallets/connect', buyer.token, {
      chain: 'BTC',
      public_key: buyer.bitcoinPublicKey,
    });
    expect(refused.status).toBe(403);

    const btcChain = await driver.bitcoinChainEntry();
    expect(btcChain.network).toBe('regtest');
    const feeAddress = btcChain.fee_address;
    const deal = await driver.openBitcoinDeal(buyer, seller, {
      assetSymbol: 'BTC',
      assetAmount,
      stableSymbol: 'USDT',
      stableAmount,
    });

    // The asset leg's custody: anyone can recompute the address from the three public keys.
    const assetLeg = deal.legs.find((leg) => leg.leg === 'asset')!;
    expect(assetLeg).toMatchObject({ chain: 'BTC', symbol: 'BTC', amount: assetAmount.toString() });
    const custody = assetLeg.custody as { witness_script: string; public_keys: Record<string, string> };
    expect(Object.keys(custody.public_keys).sort()).toEqual(['buyer', 'platform', 'seller']);
    expect(custody.public_keys.buyer).toBe(buyer.bitcoinPublicKey);
    expect(custody.public_keys.seller).toBe(seller.bitcoinPublicKey);
    expect(custody.public_keys.platform).toMatch(/^0[23][0-9a-f]{64}$/);
    const format = await driver.bitcoinAddressFormat();
    const sortedKeys = Object.values(custody.public_keys)
      .map((key) => hex.decode(key))
      .sort((a, b) => Buffer.compare(a, b));
    const recomputed = btc.p2wsh(btc.p2ms(2, sortedKeys), format);
    expect(hex.encode(recomputed.witnessScript!)).toBe(custody.witness_script);
    expect(recomputed.address).toBe(deal.asset);
    expect(deal.asset).toMatch(/^rb1q/);
    const stableLeg = deal.legs.find((leg) => leg.leg === 'stable')!;
    expect(stableLeg).toMatchObject({ chain: 'ETH', symbol: 'USDT', amount: stableAmount.toString() });
    expect(stableLeg.custody).toBeUndefined();

    // Dev funding on both chains: each depositor asks for its own leg.
    const fundedAsset = await driver.expectOk<{
      amount: string;
      transaction_hash: string;
      deposit_address: string;
    }>('POST', '/api/v1/dev/fund', seller.token, { deal_id: deal.dealId, leg: 'asset' });
    expect(fundedAsset).toMatchObject({ amount: assetAmount.toString(), deposit_address: deal.asset });
    await driver.expectOk('POST', '/api/v1/dev/fund', buyer.token, { deal_id: deal.dealId, leg: 'stable' });
    await driver.waitUntil(
      'escrow_funded',
      async () => (await driver.dealStatus(buyer, deal.dealId)) === 'escrow_funded',
      60_000,
    );
    const depositOutputs = await driver.bitcoinOutputs(fundedAsset.transaction_hash);
    expect(
      depositOutputs.filter((output) => output.address === deal.asset).map((output) => output.amount),
    ).toEqual([assetAmount]);

    // The seller signs the asset leg's PSBT, the buyer the stable leg's typed data.
    const approval = await driver.approveBitcoin(seller, deal.dealId, 'asset');
    const fee = assetAmount / 10_000n;
    const networkFee = BigInt(approval.summary.network_fee);
    expect(networkFee).toBeGreaterThan(0n);
    expect(approval.summary.dust_folded).toEqual([]);
    expect(approval.summary.outputs).toEqual([
      { kind: 'payout', to: deal.buyerPayout, amount: (assetAmount - fee - networkFee).toString() },
      { kind: 'fee', to: feeAddress, amount: fee.toString() },
    ]);
    await driver.approve(buyer, deal.dealId, 'stable');
    await driver.waitUntil(
      'the deal to complete',
      async () => (await driver.dealStatus(buyer, deal.dealId)) === 'completed',
      90_000,
    );

    // On-chain: 123,456,789 sats in; the fee is floor(123,456,789 / 10,000) = 12,345 sats to the BTC
    // fee address; the buyer gets 123,456,789 − 12,345 − network fee; the miner the network fee.
    const view = await driver.escrowView(buyer, deal.dealId);
    expect(view.status).toBe('settled');
    const payoutTxid = driver.legOf(view, 'asset').payout?.transaction_hash;
    expect(payoutTxid).toBe(approval.txid);
    expect(await driver.bitcoinConfirmations(approval.txid)).toBeGreaterThanOrEqual(2);
    const outputs = await driver.bitcoinOutputs(approval.txid);
    expect(outputs.map(({ address, amount }) => [address, amount])).toEqual([
      [deal.buyerPayout, assetAmount - fee - networkFee],
      [feeAddress, 12_345n],
    ]);
    expect(fee).toBe(12_345n);
    // What the miner took is the network fee the seller was shown: inputs − outputs.
    expect(assetAmount - outputs.reduce((sum, output) => sum + output.amount, 0n)).toBe(networkFee);
    expect(await driver.bitcoinBalance(deal.buyerPayout)).toBe(assetAmount - fee - networkFee);
    expect(await driver.bitcoinBalance(deal.asset)).toBe(0n);
    // The USDT leg: 75,000,000,001 base units in, fee floor(75,000,000,001 / 10,000) = 7,500,000.
    expect(await driver.balance('USDT', deal.sellerPayout)).toBe(stableAmount - 7_500_000n);
    expect(await driver.balance('USDT', deal.stable)).toBe(0n);

    expect(view.legs.map((leg) => [leg.leg, leg.state, leg.payout?.status])).toEqual([
      ['asset', 'released', 'confirmed'],
      ['stable', 'released', 'confirmed'],
    ]);
    // The engine's reconciliation agrees (deposits = payouts + fees + network fee): no staff alert.
    const admin = await signInStaffOverHttp(server!.url, 'admin@demo.covenant.test');
    const alerts = await driver.expectOk<{ data: unknown[] }>('GET', '/api/v1/staff/alerts', admin);
    expect(alerts.data).toEqual([]);
  });
});
