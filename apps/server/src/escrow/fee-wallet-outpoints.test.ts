import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBitcoinDealEscrow, placeholderLeg } from '../testing/insert-escrow-rows.js';
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
    const escrowId = await insertBitcoinDealEscrow(database.db);
    await database.db.insert(schema.escrowLegs).values(placeholderLeg(escrowId));
    const entry = (
      txRef: string,
      chain: string,
      kind: 'fee' | 'payout' | 'network_fee',
      status: 'confirmed' | 'pending' | 'reorged',
      minutesAgo: number,
    ) => ({
      escrowId,
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
