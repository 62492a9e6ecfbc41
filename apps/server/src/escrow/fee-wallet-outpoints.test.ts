import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feeWalletOutpoints } from './escrow-chains.js';

describe('feeWalletOutpoints', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('offers the confirmed Bitcoin fee outputs, newest first, as the coins a CPFP child may add', async () => {
    const [buyer, seller] = await database.db
      .insert(schema.users)
      .values([{ email: 'buyer@example.com' }, { email: 'seller@example.com' }])
      .returning({ id: schema.users.id });
    const [deal] = await database.db
      .insert(schema.deals)
      .values({
        buyerId: buyer!.id,
        sellerId: seller!.id,
        assetChain: 'BTC',
        assetSymbol: 'BTC',
        assetAmount: '12345678',
        stableChain: 'ETH',
        stableSymbol: 'USDT',
        stableAmount: '60000000000',
      })
      .returning({ id: schema.deals.id });
    const [escrow] = await database.db
      .insert(schema.escrows)
      .values({ dealId: deal!.id })
      .returning({ id: schema.escrows.id });
    await database.db.insert(schema.escrowLegs).values({
      escrowId: escrow!.id,
      leg: 'asset',
      chain: 'BTC',
      symbol: 'BTC',
      requiredAmount: '12345678',
      depositAddress: 'deposit',
      depositorRefundAddress: 'refund',
      receiverPayoutAddress: 'payout',
      buyerSigner: 'buyer',
      sellerSigner: 'seller',
      platformSigner: 'platform',
      requiredConfirmations: 2,
      deadline: new Date(Date.now() + 3_600_000),
    });
    const entry = (
      txRef: string,
      chain: string,
      kind: 'fee' | 'payout' | 'network_fee',
      status: 'confirmed' | 'pending' | 'reorged',
      minutesAgo: number,
    ) => ({
      escrowId: escrow!.id,
      leg: 'asset' as const,
      chain,
      kind,
      amount: '1234',
      txRef,
      position: 1,
      status,
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
    });
    await database.db
      .insert(schema.escrowLedgerEntries)
      .values([
        entry('older-fee', 'BTC', 'fee', 'confirmed', 30),
        entry('newer-fee', 'BTC', 'fee', 'confirmed', 10),
        entry('pending-fee', 'BTC', 'fee', 'pending', 5),
        entry('reorged-fee', 'BTC', 'fee', 'reorged', 5),
        entry('a-payout', 'BTC', 'payout', 'confirmed', 5),
        entry('0xethereum-fee', 'ETH', 'fee', 'confirmed', 5),
      ]);
    expect(await feeWalletOutpoints(database.db)).toEqual([
      { txid: 'newer-fee', vout: 1 },
      { txid: 'older-fee', vout: 1 },
    ]);
  });
});
