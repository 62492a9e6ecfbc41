import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { devnetPrivateKey } from '@covenant/devnets';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';

// Unfunded accounts of the devnet mnemonic: stand-ins for addresses derived from users' escrow seeds.
const firstAddress = privateKeyToAccount(devnetPrivateKey(13)).address;
const secondAddress = privateKeyToAccount(devnetPrivateKey(14)).address;

/** A request as the browser sends it; the server cannot (and need not) decrypt the ciphertext. */
function escrowKey(ethereumAddress: string, ciphertext = 'c2VhbGVkIHNlZWQgYnl0ZXMgYW5kIGEgZ2NtIHRhZw==') {
  return {
    ciphertext,
    encryption: {
      kdf: 'PBKDF2',
      hash: 'SHA-256',
      iterations: 600_000,
      salt: 'AAECAwQFBgcICQoLDA0ODw==',
      cipher: 'AES-256-GCM',
      iv: 'AAECAwQFBgcICQoL',
    },
    ethereum_address: ethereumAddress,
  };
}

describe('PUT and GET /api/v1/wallets/escrow-key', () => {
  let database: Database;
  let testApp: TestApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    testApp = await buildTestApp({ database });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp?.close();
    await database?.close();
  });

  const put = (trader: TestTrader, payload: unknown) =>
    app.inject({
      method: 'PUT',
      url: '/api/v1/wallets/escrow-key',
      headers: { authorization: `Bearer ${trader.token}` },
      payload: payload as Record<string, unknown>,
    });
  const get = (trader: TestTrader) =>
    app.inject({
      method: 'GET',
      url: '/api/v1/wallets/escrow-key',
      headers: { authorization: `Bearer ${trader.token}` },
    });
  const registeredEthereumAddress = async (trader: TestTrader) => {
    const [row] = await database.db
      .select({ address: schema.walletAddresses.address })
      .from(schema.walletAddresses)
      .where(and(eq(schema.walletAddresses.userId, trader.id), eq(schema.walletAddresses.chain, 'ETH')));
    return row?.address;
  };

  it('answers 404 before a key exists, then stores the ciphertext and registers its address as the signer', async () => {
    const trader = await createTestTrader(app);
    const none = await get(trader);
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'No escrow key yet' });

    // Sent lower-case: stored and registered in its EIP-55 form, as wallets/connect does.
    const saved = await put(trader, escrowKey(firstAddress.toLowerCase()));
    expect(saved.statusCode).toBe(200);
    const expected = {
      ...escrowKey(firstAddress),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    };
    expect(saved.json()).toEqual(expected);
    expect(await registeredEthereumAddress(trader)).toBe(firstAddress);

    const read = await get(trader);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(saved.json());
    const [row] = await database.db
      .select()
      .from(schema.escrowKeys)
      .where(eq(schema.escrowKeys.userId, trader.id));
    expect(row).toMatchObject({
      ciphertext: escrowKey(firstAddress).ciphertext,
      ethereumAddress: firstAddress,
    });
  });

  it('replaces the key and the registered address while no escrow holds funds, keeping the creation time', async () => {
    const trader = await createTestTrader(app);
    const first = (await put(trader, escrowKey(firstAddress))).json();
    const replaced = await put(trader, escrowKey(secondAddress, 'YW5vdGhlciBzZWFsZWQgc2VlZA=='));
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({
      ciphertext: 'YW5vdGhlciBzZWFsZWQgc2VlZA==',
      ethereum_address: secondAddress,
      created_at: first.created_at,
    });
    expect((await get(trader)).json()).toEqual(replaced.json());
    expect(await registeredEthereumAddress(trader)).toBe(secondAddress);
  });

  it('refuses a malformed request and stores nothing', async () => {
    const trader = await createTestTrader(app);
    const valid = escrowKey(firstAddress);
    for (const payload of [
      { ...valid, ciphertext: 'not base64!' },
      { ...valid, encryption: { ...valid.encryption, iterations: 1_000 } },
      { ...valid, encryption: { ...valid.encryption, kdf: 'scrypt' } },
      { ...valid, ethereum_address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080' },
      // Mixed case that is not the EIP-55 checksum: connectWallet refuses it as a mistyped address.
      {
        ...valid,
        ethereum_address: `0x${firstAddress
          .slice(2)
          .toLowerCase()
          .replace(/[a-f]/, (letter) => letter.toUpperCase())}`,
      },
    ]) {
      const response = await put(trader, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect((await get(trader)).statusCode).toBe(404);
    expect(await registeredEthereumAddress(trader)).toBeUndefined();
  });

  it('refuses fewer than 600 000 PBKDF2 iterations with a message that says so, and takes 600 000', async () => {
    const trader = await createTestTrader(app);
    const valid = escrowKey(firstAddress);
    for (const iterations of [100_000, 310_000, 599_999]) {
      const response = await put(trader, { ...valid, encryption: { ...valid.encryption, iterations } });
      expect(response.statusCode, String(iterations)).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(response.json().error)).toContain(
        'PBKDF2 needs at least 600000 iterations: fewer make the escrow password easy to guess from the ciphertext',
      );
    }
    expect((await get(trader)).statusCode).toBe(404);
    const taken = await put(trader, { ...valid, encryption: { ...valid.encryption, iterations: 600_000 } });
    expect(taken.statusCode).toBe(200);
  });

  it('still shows a key stored with 100 000 iterations before the floor, so its owner can unlock it', async () => {
    const trader = await createTestTrader(app);
    const older = escrowKey(secondAddress);
    await database.db.insert(schema.escrowKeys).values({
      userId: trader.id,
      ciphertext: older.ciphertext,
      encryption: { ...older.encryption, iterations: 100_000 },
      ethereumAddress: secondAddress,
    });
    const response = await get(trader);
    expect(response.statusCode).toBe(200);
    expect(response.json().encryption.iterations).toBe(100_000);
  });

  it('shows each user only their own key', async () => {
    const owner = await createTestTrader(app);
    const other = await createTestTrader(app);
    await put(owner, escrowKey(firstAddress, 'b3duZXIncyBzZWFsZWQgc2VlZA=='));
    const othersView = await get(other);
    expect(othersView.statusCode).toBe(404);
    expect(othersView.body).not.toContain('b3duZXIncyBzZWFsZWQgc2VlZA==');

    await put(other, escrowKey(secondAddress, 'b3RoZXIncyBzZWFsZWQgc2VlZA=='));
    expect((await get(other)).json()).toMatchObject({
      ciphertext: 'b3RoZXIncyBzZWFsZWQgc2VlZA==',
      ethereum_address: secondAddress,
    });
    expect((await get(owner)).json()).toMatchObject({
      ciphertext: 'b3duZXIncyBzZWFsZWQgc2VlZA==',
      ethereum_address: firstAddress,
    });
  });

  it('keeps the key while a funded escrow leg is signed by its address, and lets it go once paid out', async () => {
    const buyer = await createTestTrader(app);
    const seller = await createTestTrader(app);
    const original = (await put(seller, escrowKey(firstAddress))).json();
    const escrowId = await insertFundedEscrow(database, buyer.id, seller.id, firstAddress);

    const refused = await put(seller, escrowKey(secondAddress, 'cmVwbGFjZW1lbnQ='));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'CONFLICT',
      message: 'Your address on this chain cannot change while an escrow you sign for is open',
    });
    expect((await get(seller)).json()).toEqual(original);
    expect(await registeredEthereumAddress(seller)).toBe(firstAddress);

    await database.db
      .update(schema.escrowLegs)
      .set({ state: 'released' })
      .where(eq(schema.escrowLegs.escrowId, escrowId));
    const replaced = await put(seller, escrowKey(secondAddress, 'cmVwbGFjZW1lbnQ='));
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({
      ciphertext: 'cmVwbGFjZW1lbnQ=',
      ethereum_address: secondAddress,
    });
  });
  it('keeps the key while its Bitcoin key signs an open escrow awaiting its deposit, and lets it go once the deal is cancelled', async () => {
    const buyer = await createTestTrader(app);
    const seller = await createTestTrader(app);
    const original = (await put(seller, escrowKey(firstAddress))).json();
    // The seed's Bitcoin key (the generator point, a valid compressed key) signs the seller's Bitcoin leg.
    const bitcoinKey = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
    await database.db
      .insert(schema.walletAddresses)
      .values({ userId: seller.id, chain: 'BTC', address: bitcoinKey });
    const escrowId = await insertFundedEscrow(
      database,
      buyer.id,
      seller.id,
      '0x00000000000000000000000000000000000000aa',
    );
    await database.db
      .update(schema.escrowLegs)
      .set({ chain: 'BTC', symbol: 'BTC', sellerSigner: bitcoinKey, state: 'awaiting_deposit' })
      .where(eq(schema.escrowLegs.escrowId, escrowId));

    const refused = await put(seller, escrowKey(secondAddress, 'cmVwbGFjZW1lbnQ='));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'CONFLICT',
      message: 'Your escrow key cannot change while an escrow you sign for on Bitcoin is open',
    });
    expect((await get(seller)).json()).toEqual(original);
    expect(await registeredEthereumAddress(seller)).toBe(firstAddress);

    // The same seed encrypted again (a new escrow password) changes no signer: allowed.
    const reencrypted = await put(seller, escrowKey(firstAddress, 'bmV3IHBhc3N3b3Jk'));
    expect(reencrypted.statusCode, reencrypted.body).toBe(200);

    const [escrow] = await database.db
      .select({ dealId: schema.escrows.dealId })
      .from(schema.escrows)
      .where(eq(schema.escrows.id, escrowId));
    await database.db
      .update(schema.deals)
      .set({ status: 'cancelled' })
      .where(eq(schema.deals.id, escrow!.dealId));
    const replaced = await put(seller, escrowKey(secondAddress, 'cmVwbGFjZW1lbnQ='));
    expect(replaced.statusCode, replaced.body).toBe(200);
  });

  it('keeps an Ethereum key that signs an open escrow still awaiting its deposit', async () => {
    const buyer = await createTestTrader(app);
    const seller = await createTestTrader(app);
    await put(seller, escrowKey(firstAddress));
    const escrowId = await insertFundedEscrow(database, buyer.id, seller.id, firstAddress);
    await database.db
      .update(schema.escrowLegs)
      .set({ state: 'awaiting_deposit' })
      .where(eq(schema.escrowLegs.escrowId, escrowId));
    const refused = await put(seller, escrowKey(secondAddress, 'cmVwbGFjZW1lbnQ='));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.message).toBe(
      'Your address on this chain cannot change while an escrow you sign for is open',
    );
  });
});

/** A deal whose Ethereum asset leg is funded, with `sellerSigner` as the seller's signer; its escrow's id. */
async function insertFundedEscrow(
  database: Database,
  buyerId: string,
  sellerId: string,
  sellerSigner: string,
): Promise<string> {
  const [deal] = await database.db
    .insert(schema.deals)
    .values({
      buyerId,
      sellerId,
      assetChain: 'ETH',
      assetSymbol: 'ETH',
      assetAmount: '1000000000000000000',
      stableChain: 'ETH',
      stableSymbol: 'USDC',
      stableAmount: '3000000000',
      status: 'terms_agreed',
    })
    .returning({ id: schema.deals.id });
  const [escrow] = await database.db
    .insert(schema.escrows)
    .values({ dealId: deal!.id })
    .returning({ id: schema.escrows.id });
  await database.db.insert(schema.escrowLegs).values({
    escrowId: escrow!.id,
    leg: 'asset',
    chain: 'ETH',
    symbol: 'ETH',
    tokenAddress: null,
    requiredAmount: '1000000000000000000',
    depositAddress: `0x${escrow!.id.replaceAll('-', '').slice(0, 32)}00000000`,
    depositorRefundAddress: '0x00000000000000000000000000000000000000bb',
    receiverPayoutAddress: '0x00000000000000000000000000000000000000cc',
    buyerSigner: '0x00000000000000000000000000000000000000dd',
    sellerSigner,
    platformSigner: '0x00000000000000000000000000000000000000ee',
    requiredConfirmations: 1,
    deadline: new Date('2030-01-01T00:00:00Z'),
    state: 'funded',
  });
  return escrow!.id;
}
