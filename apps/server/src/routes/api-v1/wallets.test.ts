import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { devnetPrivateKey } from '@covenant/devnets';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Address, createPublicClient, createWalletClient, http, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import type { ChainRegistry, EthereumChainInfo } from '../../chains/chain-registry.js';
import { startChainRegistry } from '../../chains/start-chain-registry.js';
import { loadConfig } from '../../config.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

interface BalanceBody {
  data: Array<{
    chain: string;
    address: string;
    balances: Array<{ symbol: string; decimals: number; amount: string }> | null;
    held_in_escrow: Array<{ symbol: string; amount: string }>;
  }>;
}

// Unfunded accounts of the devnet mnemonic (anvil funds the first ten): their balances start at 0.
const ethAddress = privateKeyToAccount(devnetPrivateKey(11)).address;
const otherEthAddress = privateKeyToAccount(devnetPrivateKey(12)).address;
/** The same address with the case of its first letter flipped: a failed EIP-55 checksum. */
const badChecksum = flipFirstLetter(ethAddress);
const btcRegtest = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
// BIP-84's test vector: the compressed key at m/84'/0'/0'/0/0 of the phrase "abandon … about", and
// the same point uncompressed (04 ‖ x ‖ y).
const btcPublicKey = '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c';
const btcUncompressedKey =
  '0430d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c04717159ce0828a7f686c2c7510b7aa7d4c685ebc2051642ccbebc7099e2f679';
// x = 5: x³ + 7 is not a square modulo p, so this x has no point on secp256k1.
const btcNotOnCurve = `02${'00'.repeat(31)}05`;
// A wallet (an ed25519 public key) and its USDC associated token account, a program-derived
// address off the curve (findAssociatedTokenPda of @solana-program/token).
const solAddress = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const solOffCurve = 'FGETo8T8wMcN2wCjav8VK6eh3dLk63evNDPxzLSJra8B';

function flipFirstLetter(address: string): string {
  const index = address.slice(2).search(/[a-fA-F]/) + 2;
  const letter = address[index]!;
  const flipped = letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase();
  return address.slice(0, index) + flipped + address.slice(index + 1);
}

function connect(app: FastifyInstance, trader: TestTrader, chain: string, address: string) {
  return send(app, trader, { chain, address });
}

function connectKey(app: FastifyInstance, trader: TestTrader, publicKey: string) {
  return send(app, trader, { chain: 'BTC', public_key: publicKey });
}

function send(app: FastifyInstance, trader: TestTrader, payload: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/wallets/connect',
    headers: { authorization: `Bearer ${trader.token}` },
    payload,
  });
}

async function balances(app: FastifyInstance, trader: TestTrader): Promise<BalanceBody> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/v1/wallets/balance',
    headers: { authorization: `Bearer ${trader.token}` },
  });
  expect(response.statusCode).toBe(200);
  return response.json<BalanceBody>();
}

describe('POST /api/v1/wallets/connect and GET /api/v1/wallets/balance', () => {
  let database: Database;
  let testApp: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    testApp = await buildTestApp({ database });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
    await database.close();
  });

  it('registers a signer per chain, Ethereum stored checksummed, Bitcoin as a lower-case public key, and lists them without balances when no node serves the chain', async () => {
    const trader = await createTestTrader(app);
    const eth = await connect(app, trader, 'ETH', ethAddress.toLowerCase());
    expect(eth.statusCode).toBe(201);
    expect(eth.json()).toEqual({ chain: 'ETH', address: ethAddress, connected_at: expect.any(String) });
    const btc = await connectKey(app, trader, btcPublicKey.toUpperCase());
    expect(btc.statusCode).toBe(201);
    expect(btc.json()).toEqual({ chain: 'BTC', address: btcPublicKey, connected_at: expect.any(String) });
    expect((await connectKey(app, trader, btcPublicKey)).statusCode).toBe(200);
    expect((await connect(app, trader, 'SOL', solAddress)).statusCode).toBe(201);

    const stored = async (chain: string) => {
      const [row] = await database.db
        .select()
        .from(schema.walletAddresses)
        .where(and(eq(schema.walletAddresses.userId, trader.id), eq(schema.walletAddresses.chain, chain)));
      return row?.address;
    };
    expect(await stored('ETH')).toBe(ethAddress);
    expect(await stored('BTC')).toBe(btcPublicKey);

    expect(await balances(app, trader)).toEqual({
      data: [
        { chain: 'BTC', address: btcPublicKey, balances: null, held_in_escrow: [] },
        { chain: 'ETH', address: ethAddress, balances: null, held_in_escrow: [] },
        { chain: 'SOL', address: solAddress, balances: null, held_in_escrow: [] },
      ],
    });
  });

  it('refuses an address that is not valid on its chain', async () => {
    const trader = await createTestTrader(app);
    for (const [chain, address] of [
      ['ETH', badChecksum],
      ['ETH', '0x0000000000000000000000000000000000000000'],
      ['SOL', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D'],
      ['ETH', solAddress],
    ] as const) {
      const response = await connect(app, trader, chain, address);
      expect(response.statusCode, `${chain} ${address}`).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const unknownChain = await connect(app, trader, 'DOGE', ethAddress);
    expect(unknownChain.statusCode).toBe(400);
    const keyOnEthereum = await send(app, trader, { chain: 'ETH', public_key: btcPublicKey });
    expect(keyOnEthereum.statusCode).toBe(400);
    expect(keyOnEthereum.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ path: '/address' }] },
    });
    expect(await balances(app, trader)).toEqual({ data: [] });
  });

  it.each([
    ['a key that is not on the curve', btcNotOnCurve, 'This is not a point on the secp256k1 curve'],
    ['an uncompressed key', btcUncompressedKey, 'This is an uncompressed public key'],
    ['a key one byte short', btcPublicKey.slice(0, 64), 'A compressed public key is 66 hex digits'],
  ])('refuses on Bitcoin %s with 422 INVALID_PUBLIC_KEY on /public_key', async (_name, key, reason) => {
    const trader = await createTestTrader(app);
    const response = await connectKey(app, trader, key);
    expect(response.statusCode).toBe(422);
    const { error } = response.json();
    expect(error.code).toBe('INVALID_PUBLIC_KEY');
    expect(error.message).toContain(reason);
    expect(error.details).toEqual({
      in: 'body',
      issues: [{ path: '/public_key', message: expect.stringContaining(reason) }],
    });
    expect(await balances(app, trader)).toEqual({ data: [] });
  });

  it('refuses on Solana an address off the ed25519 curve (a program-derived address) with 422 INVALID_PUBLIC_KEY', async () => {
    const trader = await createTestTrader(app);
    // The associated token account of a wallet: a program-derived address, which no key can sign for.
    const response = await connect(app, trader, 'SOL', solOffCurve);
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({
      code: 'INVALID_PUBLIC_KEY',
      message: expect.stringContaining('not on the ed25519 curve'),
      details: { in: 'body', issues: [{ path: '/address' }] },
    });
    expect(await balances(app, trader)).toEqual({ data: [] });
    const onCurve = await connect(app, trader, 'SOL', solAddress);
    expect(onCurve.statusCode).toBe(201);
  });

  it('refuses a Bitcoin address in place of the public key with 422, saying why', async () => {
    const trader = await createTestTrader(app);
    const response = await connect(app, trader, 'BTC', btcRegtest);
    expect(response.statusCode).toBe(422);
    const { error } = response.json();
    expect(error).toMatchObject({
      code: 'INVALID_PUBLIC_KEY',
      message: expect.stringContaining('Bitcoin escrow needs a public key, not an address'),
      details: { in: 'body', issues: [{ path: '/address' }] },
    });
    // Neither an address nor a key: the issue names the field to send.
    const empty = await send(app, trader, { chain: 'BTC' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.details.issues).toEqual([
      { path: '/public_key', message: expect.stringContaining('send public_key') },
    ]);
    expect(await balances(app, trader)).toEqual({ data: [] });
  });

  it('answers 200 unchanged for the same address, and changes it freely while no escrow holds funds', async () => {
    const trader = await createTestTrader(app);
    const first = await connect(app, trader, 'ETH', ethAddress);
    const again = await connect(app, trader, 'ETH', ethAddress.toLowerCase());
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const changed = await connect(app, trader, 'ETH', otherEthAddress);
    expect(changed.statusCode).toBe(201);
    expect(changed.json()).toMatchObject({ chain: 'ETH', address: otherEthAddress });
    expect((await balances(app, trader)).data.map((wallet) => wallet.address)).toEqual([otherEthAddress]);
  });

  it('shows a user only their own addresses', async () => {
    const owner = await createTestTrader(app);
    const other = await createTestTrader(app);
    await connect(app, owner, 'SOL', solAddress);
    await connectKey(app, other, btcPublicKey);
    const seen = await balances(app, other);
    expect(seen.data.map((wallet) => wallet.chain)).toEqual(['BTC']);
    expect(JSON.stringify(seen)).not.toContain(solAddress);
  });

  it('keeps the address while an escrow leg it signs holds a deposit, and shows what the depositor holds in escrow', async () => {
    const buyer = await createTestTrader(app);
    const seller = await createTestTrader(app);
    expect((await connect(app, seller, 'ETH', ethAddress)).statusCode).toBe(201);
    const { escrowId } = await insertEscrow(database, {
      buyerId: buyer.id,
      sellerId: seller.id,
      // The signer as a lower-case address: the check ignores the checksum case.
      sellerSigner: ethAddress.toLowerCase(),
      assetState: 'funded',
    });

    const refused = await connect(app, seller, 'ETH', otherEthAddress);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'CONFLICT',
      message: 'Your address on this chain cannot change while an escrow you sign for is open',
    });
    // Re-registering the same address is no change.
    expect((await connect(app, seller, 'ETH', ethAddress)).statusCode).toBe(200);
    // Another chain is not affected.
    expect((await connect(app, seller, 'SOL', solAddress)).statusCode).toBe(201);

    // The seller deposits the asset leg: 2.5 ETH = 2 500 000 000 000 000 000 wei held. The stable leg
    // (the buyer's 5 000 USDT = 5 000 000 000 base units) is still awaiting its deposit: held by no one.
    const sellerView = await balances(app, seller);
    expect(sellerView.data.find((wallet) => wallet.chain === 'ETH')).toEqual({
      chain: 'ETH',
      address: ethAddress,
      balances: null,
      held_in_escrow: [{ symbol: 'ETH', amount: '2500000000000000000' }],
    });
    await connect(app, buyer, 'ETH', otherEthAddress);
    expect((await balances(app, buyer)).data).toEqual([
      { chain: 'ETH', address: otherEthAddress, balances: null, held_in_escrow: [] },
    ]);

    // Once the leg is paid out, the address may change.
    await database.db
      .update(schema.escrowLegs)
      .set({ state: 'released' })
      .where(eq(schema.escrowLegs.escrowId, escrowId));
    const changed = await connect(app, seller, 'ETH', otherEthAddress);
    expect(changed.statusCode).toBe(201);
    expect(
      (await balances(app, seller)).data.find((wallet) => wallet.chain === 'ETH')?.held_in_escrow,
    ).toEqual([]);
  });

  it('honours Idempotency-Key: a retried registration answers the first response', async () => {
    const trader = await createTestTrader(app);
    const send = (address: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/wallets/connect',
        headers: { authorization: `Bearer ${trader.token}`, 'idempotency-key': 'wallet-connect-1' },
        payload: { chain: 'SOL', address },
      });
    const first = await send(solAddress);
    const retried = await send(solAddress);
    expect(first.statusCode).toBe(201);
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toEqual(first.json());
  });
});

describe('GET /api/v1/wallets/balance on the local Ethereum devnet', () => {
  let database: Database;
  let dataDir: string;
  let chains: ChainRegistry;
  let testApp: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'covenant-wallets-'));
    chains = await startChainRegistry(loadConfig({ DATA_DIR: dataDir }));
    testApp = await buildTestApp({ database, chains });
  });
  afterAll(async () => {
    await testApp?.close();
    await chains?.stop();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reads ETH and every token to the base unit', async () => {
    const { app } = testApp;
    const ethereum = chains.chains[0] as EthereumChainInfo;
    const trader = await createTestTrader(app);
    await connect(app, trader, 'ETH', ethAddress);

    const transport = http(ethereum.rpcUrl, { retryCount: 0 });
    const client = createPublicClient({ transport, cacheTime: 0 });
    const wallet = createWalletClient({
      account: privateKeyToAccount(devnetPrivateKey(1)),
      chain: { ...foundry, id: ethereum.chainId },
      transport,
      cacheTime: 0,
    });
    const usdc = ethereum.tokens.find((token) => token.symbol === 'USDC')?.address as Address;
    await client.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: ethAddress, value: 1_500_000_000_000_000_001n }),
    });
    await client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: usdc,
        abi: parseAbi(['function mint(address to, uint256 amount)']),
        functionName: 'mint',
        args: [ethAddress, 1_234_567n],
      }),
    });

    expect(await balances(app, trader)).toEqual({
      data: [
        {
          chain: 'ETH',
          address: ethAddress,
          // 1.5 ETH and one wei; 1.234567 USDC (6 decimals); nothing of the other tokens.
          balances: [
            { symbol: 'ETH', decimals: 18, amount: '1500000000000000001' },
            { symbol: 'USDC', decimals: 6, amount: '1234567' },
            { symbol: 'USDT', decimals: 6, amount: '0' },
            { symbol: 'WETH', decimals: 18, amount: '0' },
            { symbol: 'WBTC', decimals: 8, amount: '0' },
          ],
          held_in_escrow: [],
        },
      ],
    });
  });

  it('answers null balances when the node does not answer', async () => {
    const ethereum = chains.chains[0] as EthereumChainInfo;
    // Port 9 (discard) on this host: nothing listens, the connection is refused.
    const deadNode: ChainRegistry = {
      chains: [{ ...ethereum, rpcUrl: 'http://127.0.0.1:9' }],
      stop: async () => {},
    };
    const deadApp = await buildTestApp({ database, chains: deadNode });
    try {
      const trader = await createTestTrader(deadApp.app);
      await connect(deadApp.app, trader, 'ETH', ethAddress);
      expect((await balances(deadApp.app, trader)).data).toEqual([
        { chain: 'ETH', address: ethAddress, balances: null, held_in_escrow: [] },
      ]);
    } finally {
      await deadApp.close();
    }
  });
});

async function insertEscrow(
  database: Database,
  options: {
    buyerId: string;
    sellerId: string;
    sellerSigner: string;
    assetState: schema.EscrowLegState;
  },
): Promise<{ escrowId: string }> {
  const [deal] = await database.db
    .insert(schema.deals)
    .values({
      buyerId: options.buyerId,
      sellerId: options.sellerId,
      assetChain: 'ETH',
      assetSymbol: 'ETH',
      assetAmount: '2500000000000000000',
      stableChain: 'ETH',
      stableSymbol: 'USDT',
      stableAmount: '5000000000',
      status: 'terms_agreed',
    })
    .returning({ id: schema.deals.id });
  const [escrow] = await database.db
    .insert(schema.escrows)
    .values({ dealId: deal!.id })
    .returning({ id: schema.escrows.id });
  const escrowId = escrow!.id;
  const leg = (name: 'asset' | 'stable', state: schema.EscrowLegState) => ({
    escrowId,
    leg: name,
    chain: 'ETH',
    symbol: name === 'asset' ? 'ETH' : 'USDT',
    tokenAddress: name === 'asset' ? null : '0x00000000000000000000000000000000000000aa',
    requiredAmount: name === 'asset' ? '2500000000000000000' : '5000000000',
    depositAddress: `0x${escrowId.replaceAll('-', '').slice(0, 31)}${name === 'asset' ? 'a' : 'b'}00000000`,
    depositorRefundAddress: '0x00000000000000000000000000000000000000bb',
    receiverPayoutAddress: '0x00000000000000000000000000000000000000cc',
    buyerSigner: '0x00000000000000000000000000000000000000dd',
    sellerSigner: options.sellerSigner,
    platformSigner: '0x00000000000000000000000000000000000000ee',
    requiredConfirmations: 1,
    deadline: new Date('2030-01-01T00:00:00Z'),
    state,
  });
  await database.db
    .insert(schema.escrowLegs)
    .values([leg('asset', options.assetState), leg('stable', 'awaiting_deposit')]);
  return { escrowId };
}
