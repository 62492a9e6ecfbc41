import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { DEVNET_FEE_ADDRESS, devnetPrivateKey } from '@covenant/devnets';
import { type Address, createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../build-test-app.js';
import type { ChainRegistry } from '../../chains/chain-registry.js';
import { startChainRegistry } from '../../chains/start-chain-registry.js';
import { loadConfig } from '../../config.js';

interface ChainsBody {
  data: Array<{
    chain: string;
    network?: string;
    chain_id: number;
    tokens: Array<{ symbol: string; decimals: number; address: string | null }>;
    confirmations: number | 'finalized';
    escrow_factory: Address;
    fee_address: Address;
    explorer_url: string | null;
    rpc_url?: string;
  }>;
}

async function getChains(database: Database, chains: ChainRegistry): Promise<ChainsBody> {
  const testApp = await buildTestApp({ database, chains });
  try {
    // Public: no Authorization header.
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/chains' });
    expect(response.statusCode).toBe(200);
    return response.json<ChainsBody>();
  } finally {
    await testApp.close();
  }
}

const marked: Address = '0x000000000000000000000000000000000000c0de';

/** The block count of a Bitcoin node, through the URL (and its credentials) GET /chains gave. */
async function bitcoinBlockCount(rpcUrl: string): Promise<number> {
  const url = new URL(rpcUrl);
  const authorization = `Basic ${Buffer.from(`${url.username}:${url.password}`).toString('base64')}`;
  const response = await fetch(`${url.protocol}//${url.host}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'getblockcount', params: [] }),
  });
  return ((await response.json()) as { result: number }).result;
}

/** A Solana JSON-RPC call through the URL GET /chains gave. */
async function solanaRpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const reply = (await response.json()) as { result: T; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}

/** A wallet on Solana that only the first devnet run pays, to tell a restored ledger from a new one. */
const solanaMarked = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

function publicClient(rpcUrl: string) {
  return createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }), cacheTime: 0 });
}

describe('GET /api/v1/chains', () => {
  let database: Database;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'covenant-chains-'));
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists no chain when the app has none', async () => {
    const testApp = await buildTestApp({ database });
    try {
      const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/chains' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: [] });
    } finally {
      await testApp.close();
    }
  });

  it('starts the local devnets (Ethereum with its contracts deployed once, Bitcoin, Solana with its mints), keeps their chains in DATA_DIR, and nodes given by URL are listed without it', async () => {
    const devnetConfig = loadConfig({ DATA_DIR: dataDir });
    expect(devnetConfig.ethereum).toEqual({ mode: 'devnet', confirmations: 1 });

    const first = await startChainRegistry(devnetConfig);
    let firstBody: ChainsBody;
    try {
      firstBody = await getChains(database, first);
      const [ethereum, bitcoin, solana] = firstBody.data;
      expect(firstBody.data.map((chain) => chain.chain)).toEqual(['ETH', 'BTC', 'SOL']);
      // Solana: the local devnet (LiteSVM behind the Solana JSON-RPC) with its test mints.
      expect(solana).toMatchObject({
        chain: 'SOL',
        network: 'localnet',
        confirmations: 1,
        explorer_url: null,
      });
      expect(solana?.tokens.map((token) => [token.symbol, token.decimals])).toEqual([
        ['SOL', 9],
        ['USDC', 6],
        ['USDT', 6],
      ]);
      expect(solana?.tokens[0]?.address).toBeNull();
      expect(solana?.fee_address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect(solana?.rpc_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
      const solanaUrl = solana?.rpc_url ?? '';
      for (const mint of solana?.tokens.slice(1) ?? []) {
        const account = await solanaRpc<{ value: { owner: string } | null }>(solanaUrl, 'getAccountInfo', [
          mint.address,
          { encoding: 'base64' },
        ]);
        expect(account.value?.owner).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
      }
      const airdrop = await solanaRpc<string>(solanaUrl, 'requestAirdrop', [solanaMarked, 7_000_000]);
      for (let tries = 0; tries < 100; tries++) {
        const statuses = await solanaRpc<{ value: ({ confirmationStatus: string } | null)[] }>(
          solanaUrl,
          'getSignatureStatuses',
          [[airdrop]],
        );
        if (statuses.value[0]?.confirmationStatus === 'finalized') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Bitcoin: the local regtest node, its URL with the credentials its JSON-RPC needs.
      expect(bitcoin).toMatchObject({
        chain: 'BTC',
        network: 'regtest',
        tokens: [{ symbol: 'BTC', decimals: 8, address: null }],
        confirmations: 2,
        explorer_url: null,
      });
      expect(bitcoin?.fee_address).toMatch(/^rb1q[02-9ac-hj-np-z]{38}$/);
      expect(bitcoin?.rpc_url).toMatch(/^http:\/\/covenant:[0-9a-f]{32}@127\.0\.0\.1:\d+\/$/);
      expect(await bitcoinBlockCount(bitcoin?.rpc_url ?? '')).toBeGreaterThanOrEqual(442);
      expect(ethereum).toMatchObject({
        chain: 'ETH',
        chain_id: 31337,
        confirmations: 1,
        fee_address: DEVNET_FEE_ADDRESS,
        explorer_url: null,
      });
      expect(ethereum?.tokens.map((token) => [token.symbol, token.decimals])).toEqual([
        ['ETH', 18],
        ['USDC', 6],
        ['USDT', 6],
        ['WETH', 18],
        ['WBTC', 8],
      ]);
      expect(ethereum?.tokens[0]?.address).toBeNull();
      expect(ethereum?.rpc_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const client = publicClient(ethereum?.rpc_url ?? '');
      for (const address of [
        ethereum?.escrow_factory,
        ...(ethereum?.tokens.slice(1) ?? []).map((t) => t.address),
      ]) {
        expect(await client.getBytecode({ address: address as Address })).toMatch(/^0x[0-9a-f]{20,}/);
      }
      // A mark on this chain (one more block) that only a chain restored from DATA_DIR still carries.
      const wallet = createWalletClient({
        account: privateKeyToAccount(devnetPrivateKey(1)),
        chain: { ...foundry, id: 31337 },
        transport: http(ethereum?.rpc_url, { retryCount: 0 }),
        cacheTime: 0,
      });
      await client.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to: marked, value: 7n }),
      });
      expect(await client.getBlockNumber()).toBe(6n);
    } finally {
      await first.stop();
    }
    expect(await answers(firstBody.data[0]?.rpc_url ?? '')).toBe(false);

    // Restarted on the same DATA_DIR: the saved chain already holds the contracts.
    const again = await startChainRegistry(devnetConfig);
    try {
      const againBody = await getChains(database, again);
      const [ethereum, bitcoin, solana] = againBody.data;
      // The Solana ledger was kept in DATA_DIR/solana: the same mints, the airdrop still there.
      expect(solana?.tokens).toEqual(firstBody.data[2]?.tokens);
      const solanaUrl = solana?.rpc_url ?? '';
      expect(await solanaRpc<{ value: number }>(solanaUrl, 'getBalance', [solanaMarked])).toMatchObject({
        value: 7_000_000,
      });
      // The regtest chain was kept in DATA_DIR/bitcoin: it restarts where it stopped.
      expect(await bitcoinBlockCount(bitcoin?.rpc_url ?? '')).toBeGreaterThanOrEqual(442);
      const bitcoinNode = new URL(bitcoin?.rpc_url ?? '');
      expect(ethereum?.escrow_factory).toBe(firstBody.data[0]?.escrow_factory);
      expect(ethereum?.tokens).toEqual(firstBody.data[0]?.tokens);
      const rpcUrl = ethereum?.rpc_url ?? '';
      // Five deployments (the factory and four tokens) from the first account, then the mark; none since.
      const client = publicClient(rpcUrl);
      const deployer = privateKeyToAccount(devnetPrivateKey(0)).address;
      expect(await client.getTransactionCount({ address: deployer })).toBe(5);
      expect(await client.getBalance({ address: marked })).toBe(7n);
      expect(await client.getBlockNumber()).toBe(6n);

      // The same chain as a real node: the addresses come from the settings, the URL is not shown.
      const tokens = ethereum?.tokens.slice(1) ?? [];
      const nodeConfig = loadConfig({
        DATA_DIR: dataDir,
        ETH_RPC_URL: rpcUrl,
        ETH_ESCROW_FACTORY: ethereum?.escrow_factory ?? '',
        ETH_FEE_ADDRESS: DEVNET_FEE_ADDRESS.toLowerCase(),
        ETH_TOKENS: tokens.map((token) => `${token.symbol}:${token.address}`).join(','),
        BTC_RPC_URL: `${bitcoinNode.protocol}//${bitcoinNode.host}`,
        BTC_RPC_USER: bitcoinNode.username,
        BTC_RPC_PASSWORD: bitcoinNode.password,
        SOL_RPC_URL: solanaUrl,
        SOL_NETWORK: 'devnet',
        SOL_USDC_MINT: solana?.tokens[1]?.address ?? '',
        SOL_USDT_MINT: solana?.tokens[2]?.address ?? '',
        SOL_FEE_ADDRESS: solanaMarked,
      });
      expect(nodeConfig.ethereum).toMatchObject({ mode: 'node', confirmations: 'finalized' });
      const node = await startChainRegistry(nodeConfig);
      const nodeBody = await getChains(database, node);
      await node.stop();
      expect(nodeBody.data).toEqual([
        {
          chain: 'ETH',
          chain_id: 31337,
          tokens: ethereum?.tokens,
          confirmations: 'finalized',
          escrow_factory: ethereum?.escrow_factory,
          fee_address: DEVNET_FEE_ADDRESS,
          explorer_url: null,
        },
        {
          chain: 'BTC',
          network: 'regtest',
          tokens: [{ symbol: 'BTC', decimals: 8, address: null }],
          confirmations: 2,
          fee_address: expect.stringMatching(/^rb1q/),
          explorer_url: null,
        },
        {
          chain: 'SOL',
          network: 'devnet',
          tokens: solana?.tokens,
          confirmations: 'finalized',
          fee_address: solanaMarked,
          explorer_url: null,
        },
      ]);
      expect(await answers(rpcUrl)).toBe(true);
    } finally {
      await again.stop();
    }
  });

  it('refuses a node without its contracts, and contract settings without a node', async () => {
    expect(() => loadConfig({ ETH_RPC_URL: 'http://127.0.0.1:8545' })).toThrow(
      /ETH_ESCROW_FACTORY: is required when ETH_RPC_URL is set[\s\S]*ETH_FEE_ADDRESS[\s\S]*ETH_TOKENS/,
    );
    expect(() => loadConfig({ ETH_FEE_ADDRESS: DEVNET_FEE_ADDRESS })).toThrow(
      /ETH_FEE_ADDRESS: is only used with ETH_RPC_URL/,
    );
    expect(() =>
      loadConfig({
        ETH_RPC_URL: 'http://127.0.0.1:8545',
        ETH_ESCROW_FACTORY: '0x1234',
        ETH_FEE_ADDRESS: DEVNET_FEE_ADDRESS,
        ETH_TOKENS: 'USDC=0x0000000000000000000000000000000000000001',
        ETH_CONFIRMATIONS: '0',
      }),
    ).toThrow(/ETH_ESCROW_FACTORY: must be an Ethereum address[\s\S]*ETH_TOKENS[\s\S]*ETH_CONFIRMATIONS/);
    expect(loadConfig({ ETH_CONFIRMATIONS: '12' }).ethereum).toEqual({ mode: 'devnet', confirmations: 12 });
  });
});

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return response.ok;
  } catch {
    return false;
  }
}
