import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { covenantEscrowAbi, testTetherTokenAbi } from '@covenant/contracts';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { type Anvil, type Devnet, deployDevnet, fundFromDevnetWallet, startAnvil } from '@covenant/devnets';
import type { EscrowStatusView } from '@covenant/domain';
import { typedDataFromJson } from '@covenant/escrow/ethereum';
import {
  type Address,
  createPublicClient,
  createTestClient,
  erc20Abi,
  getAbiItem,
  type Hex,
  http,
} from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../testing/start-server-process.js';

// Done-when (5): the server dies by SIGKILL after co-signing a settlement payout and storing the
// signed transaction, before broadcasting it; started again on the same data it settles the deal,
// and each escrow pays out exactly once, every balance exact to the base unit.
//
// Asset leg: 2.000000000000012345 WETH = 2_000_000_000_000_012_345 wei, deposited by the seller.
//   fee = floor(2_000_000_000_000_012_345 / 10_000) = 200_000_000_000_001
//   buyer receives 2_000_000_000_000_012_345 − 200_000_000_000_001 = 1_999_800_000_000_012_344
// Stable leg: 6,000.123457 USDT = 6_000_123_457 base units, deposited by the buyer.
//   fee = floor(6_000_123_457 / 10_000) = 600_012
//   seller receives 6_000_123_457 − 600_012 = 5_999_523_445
const assetAmount = 2_000_000_000_000_012_345n;
const assetFee = 200_000_000_000_001n;
const stableAmount = 6_000_123_457n;
const stableFee = 600_012n;

/** Everything the test needs of a party: its session, its escrow key, its wallet and where it is paid. */
interface Party {
  email: string;
  id: string;
  token: string;
  escrowKey: PrivateKeyAccount;
  walletKey: Hex;
  wallet: Address;
  payoutAddress: Address;
}

let anvil: Anvil;
let devnet: Devnet;
let dataDir: string;
let postgres: Database | undefined;
let serverEnv: Record<string, string>;
let server: ServerProcess | undefined;
/** The deal under test and a party's token, for the escrow's state in failure messages. */
let dealIdSeen: string | undefined;
let tokenSeen: string | undefined;
const feeAddress = privateKeyToAccount(generatePrivateKey()).address;

const publicClient = () =>
  createPublicClient({
    chain: foundry,
    transport: http(anvil.rpcUrl, { retryCount: 0 }),
    cacheTime: 0,
    pollingInterval: 50,
  });

beforeAll(async () => {
  anvil = await startAnvil();
  devnet = await deployDevnet({ rpcUrl: anvil.rpcUrl });
  dataDir = await mkdtemp(join(tmpdir(), 'covenant-crash-'));
  if (process.env.TEST_DB === 'postgres') postgres = await createTestDatabase();
  // Against a node (ETH_RPC_URL) the server does not fund its relayer: the operator does, here the test.
  const relayerKey = generatePrivateKey();
  await mkdir(join(dataDir, 'keys'), { recursive: true, mode: 0o700 });
  await writeFile(join(dataDir, 'keys', 'ethereum-relayer.key'), `${relayerKey}\n`, { mode: 0o600 });
  await createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) }).setBalance({
    address: privateKeyToAccount(relayerKey).address,
    value: 10n ** 20n,
  });
  serverEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    ETH_RPC_URL: anvil.rpcUrl,
    ETH_ESCROW_FACTORY: devnet.escrowFactory,
    ETH_FEE_ADDRESS: feeAddress,
    ETH_TOKENS: `WETH:${devnet.tokens.WETH.address},USDT:${devnet.tokens.USDT.address}`,
    ETH_CONFIRMATIONS: '1',
    ESCROW_POLL_MS: '300',
    ...(postgres ? { DATABASE_URL: postgres.connectionString, SEED_DEMO_DATA: 'true' } : {}),
  };
}, 120_000);

afterAll(async () => {
  await server?.kill();
  await anvil?.stop();
  await postgres?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** One request to the running server; the status and the parsed JSON body (null when empty), typed as the caller expects. */
async function call<Body = { status?: string; id?: string }>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; json: Body | null }> {
  if (!server) throw new Error('no server running');
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Body) : null };
}

/** A request that must succeed (2xx); its body. */
async function expectOk<Body = { status?: string; id: string }>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  token: string,
  body?: unknown,
): Promise<Body> {
  const response = await call<Body>(method, path, token, body);
  expect(response.status, `${method} ${path}: ${JSON.stringify(response.json)}`).toBeLessThan(300);
  if (response.json === null) throw new Error(`${method} ${path} answered no body`);
  return response.json;
}

/** A demo trader signed in through the API, with a fresh escrow key, a funded wallet and a fresh payout address. */
async function signIn(email: string): Promise<Party> {
  const login = await call<{ access_token: string }>('POST', '/auth/login', null, {
    email,
    password: 'covenant-demo',
  });
  expect(login.status, JSON.stringify(login.json)).toBe(200);
  const token = login.json?.access_token ?? '';
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    sub: string;
  };
  const walletKey = generatePrivateKey();
  const wallet = privateKeyToAccount(walletKey).address;
  await createTestClient({ chain: foundry, mode: 'anvil', transport: http(anvil.rpcUrl) }).setBalance({
    address: wallet,
    value: 10n ** 20n,
  });
  return {
    email,
    id: claims.sub,
    token,
    escrowKey: privateKeyToAccount(generatePrivateKey()),
    walletKey,
    wallet,
    payoutAddress: privateKeyToAccount(generatePrivateKey()).address,
  };
}

/** Polls until `done` holds; the server's own passes (every ESCROW_POLL_MS) do the work. */
async function waitUntil(what: string, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const escrow = dealIdSeen && tokenSeen ? await call('GET', `/deals/${dealIdSeen}/escrow`, tokenSeen) : null;
  throw new Error(
    `timed out waiting for ${what}\nescrow: ${JSON.stringify(escrow?.json, null, 1)}\n${server?.output() ?? ''}`,
  );
}

async function balanceOf(symbol: 'WETH' | 'USDT', address: Address): Promise<bigint> {
  return publicClient().readContract({
    address: devnet.tokens[symbol].address,
    abi: symbol === 'USDT' ? testTetherTokenAbi : erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
}

const isSettled = (escrow: Address) =>
  publicClient().readContract({ address: escrow, abi: covenantEscrowAbi, functionName: 'settled' });

const settledEvents = (escrow: Address) =>
  publicClient().getLogs({
    address: escrow,
    event: getAbiItem({ abi: covenantEscrowAbi, name: 'Settled' }),
    fromBlock: 0n,
    toBlock: 'latest',
  });

const legOf = (view: EscrowStatusView, leg: 'asset' | 'stable') => {
  const found = view.legs.find((entry) => entry.leg === leg);
  if (!found) throw new Error(`no ${leg} leg`);
  return found;
};

describe('a settlement interrupted by SIGKILL between co-signing and broadcast', { timeout: 180_000 }, () => {
  let buyer: Party;
  let seller: Party;
  let dealId: string;
  let assetEscrow: Address;
  let stableEscrow: Address;

  it('gets a WETH-against-USDT deal funded through the API of a server set to crash after co-signing', async () => {
    server = await startServerProcess({ ...serverEnv, ESCROW_CRASH_POINT: 'after-cosign' });
    buyer = await signIn('buyer@demo.covenant.test');
    seller = await signIn('seller@demo.covenant.test');

    const created = await expectOk('POST', '/deals', buyer.token, {
      asset_chain: 'ETH',
      asset_symbol: 'WETH',
      asset_amount: assetAmount.toString(),
      stable_chain: 'ETH',
      stable_symbol: 'USDT',
      stable_amount: stableAmount.toString(),
      counterparty_id: seller.id,
    });
    dealId = created.id;
    dealIdSeen = dealId;
    tokenSeen = buyer.token;

    // CIS exchange: each attaches a sheet, each approves the other's.
    for (const party of [buyer, seller]) {
      const sheet = await expectOk('POST', '/cis', party.token, {
        legal_name: `${party.email} Holdings`,
        entity_type: 'company',
        jurisdiction: 'CH',
        source_of_funds: 'Retained trading profits',
        assets: ['WETH', 'USDT'],
        size_min_usd: 1_000,
        size_max_usd: 1_000_000,
        preferred_chains: ['ETH'],
        settlement_window_hours: 72,
      });
      await expectOk('POST', `/deals/${dealId}/cis`, party.token, { cis_id: sheet.id });
    }
    for (const party of [buyer, seller])
      await expectOk('POST', `/deals/${dealId}/cis/approve`, party.token, {});

    // Terms: both addresses set (payouts to fresh addresses, refunds to the wallets), the seller accepts the buyer's version 1.
    for (const party of [buyer, seller]) {
      await expectOk('PUT', `/deals/${dealId}/addresses`, party.token, {
        payout_address: party.payoutAddress,
        refund_address: party.wallet,
      });
    }
    const agreed = await expectOk('POST', `/deals/${dealId}/terms/accept`, seller.token, { version: 1 });
    expect(agreed.status).toBe('terms_agreed');

    for (const party of [buyer, seller]) {
      await expectOk('POST', '/wallets/connect', party.token, {
        chain: 'ETH',
        address: party.escrowKey.address,
      });
    }
    const escrow = await expectOk<{ legs: { leg: string; deposit_address: Address }[] }>(
      'POST',
      '/escrow/create',
      buyer.token,
      { deal_id: dealId },
    );
    const { legs } = escrow;
    assetEscrow = legs.find((leg) => leg.leg === 'asset')!.deposit_address;
    stableEscrow = legs.find((leg) => leg.leg === 'stable')!.deposit_address;

    await fundFromDevnetWallet({
      rpcUrl: anvil.rpcUrl,
      token: devnet.tokens.WETH.address,
      to: assetEscrow,
      amount: assetAmount,
      fromKey: seller.walletKey,
    });
    await fundFromDevnetWallet({
      rpcUrl: anvil.rpcUrl,
      token: devnet.tokens.USDT.address,
      to: stableEscrow,
      amount: stableAmount,
      fromKey: buyer.walletKey,
    });
    await waitUntil('escrow_funded', async () => {
      const deal = await call('GET', `/deals/${dealId}`, buyer.token);
      return deal.json?.status === 'escrow_funded';
    });
  });

  it('dies by SIGKILL once both parties approve, with nothing paid out on-chain', async () => {
    const approvals: [Party, 'asset' | 'stable'][] = [
      [seller, 'asset'],
      [buyer, 'stable'],
    ];
    for (const [party, leg] of approvals) {
      // The deal reads escrow_funded a moment before the pass that prepares the payouts ends.
      let typedData: EscrowStatusView['legs'][number]['release_typed_data'] = null;
      for (let attempt = 0; attempt < 100 && !typedData; attempt++) {
        const view = await expectOk<EscrowStatusView>('GET', `/deals/${dealId}/escrow`, party.token);
        typedData = legOf(view, leg).release_typed_data;
        if (!typedData) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!typedData) throw new Error(`nothing for the ${leg} leg's giver to sign`);
      const signature = await party.escrowKey.signTypedData(typedDataFromJson(typedData));
      const request = call('POST', '/escrow/release', party.token, { deal_id: dealId, leg, signature });
      if (leg === 'asset') {
        const approved = await request;
        expect(approved.status, JSON.stringify(approved.json)).toBe(202);
      } else {
        // The approval is stored before the pass it starts co-signs: the server may die before it answers.
        const answered = await request.catch(() => null);
        if (answered) expect(answered.status, JSON.stringify(answered.json)).toBe(202);
      }
    }
    const exit = await Promise.race([
      server!.exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000)),
    ]);
    expect(exit, server!.output()).toEqual({ code: null, signal: 'SIGKILL' });
    expect(server!.output()).toContain('crash point after-cosign');

    // Stored, not sent: nobody is paid, both escrows still hold the deposits and are unsettled.
    expect(await balanceOf('WETH', buyer.payoutAddress)).toBe(0n);
    expect(await balanceOf('USDT', seller.payoutAddress)).toBe(0n);
    expect(await balanceOf('WETH', feeAddress)).toBe(0n);
    expect(await balanceOf('USDT', feeAddress)).toBe(0n);
    expect(await balanceOf('WETH', assetEscrow)).toBe(assetAmount);
    expect(await balanceOf('USDT', stableEscrow)).toBe(stableAmount);
    expect(await isSettled(assetEscrow)).toBe(false);
    expect(await isSettled(stableEscrow)).toBe(false);
  });

  it('started again on the same data, settles both legs exactly once, to the base unit', async () => {
    server = await startServerProcess(serverEnv);
    await waitUntil(
      'the deal to complete after the restart',
      async () => (await call('GET', `/deals/${dealId}`, buyer.token)).json?.status === 'completed',
      60_000,
    );

    expect(await balanceOf('WETH', buyer.payoutAddress)).toBe(assetAmount - assetFee);
    expect(await balanceOf('USDT', seller.payoutAddress)).toBe(stableAmount - stableFee);
    expect(await balanceOf('WETH', feeAddress)).toBe(assetFee);
    expect(await balanceOf('USDT', feeAddress)).toBe(stableFee);
    expect(await balanceOf('WETH', assetEscrow)).toBe(0n);
    expect(await balanceOf('USDT', stableEscrow)).toBe(0n);
    expect(await isSettled(assetEscrow)).toBe(true);
    expect(await isSettled(stableEscrow)).toBe(true);
    expect(await settledEvents(assetEscrow)).toHaveLength(1);
    expect(await settledEvents(stableEscrow)).toHaveLength(1);

    const view = await expectOk<EscrowStatusView>('GET', `/deals/${dealId}/escrow`, buyer.token);
    expect(view.status).toBe('settled');
    expect([legOf(view, 'asset').state, legOf(view, 'stable').state]).toEqual(['released', 'released']);

    // A few more passes change nothing: the stored transaction is not sent a second time.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await settledEvents(assetEscrow)).toHaveLength(1);
    expect(await settledEvents(stableEscrow)).toHaveLength(1);
    expect(await balanceOf('WETH', buyer.payoutAddress)).toBe(assetAmount - assetFee);
    expect(await balanceOf('USDT', seller.payoutAddress)).toBe(stableAmount - stableFee);
  });
});
