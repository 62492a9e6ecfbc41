import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBitcoinDealEscrow, placeholderLeg } from '../testing/insert-escrow-rows.js';
import { checkPlatformSigner } from './check-platform-signer.js';
import { createFilePlatformSigner, type PlatformSigner } from './platform-signer.js';

describe('checkPlatformSigner', () => {
  let database: Database;
  let dirs: string[];
  let platform: PlatformSigner;
  let stranger: PlatformSigner;
  let escrowId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dirs = [await mkdtemp(join(tmpdir(), 'covenant-key-')), await mkdtemp(join(tmpdir(), 'covenant-key-'))];
    platform = await createFilePlatformSigner(dirs[0]!);
    stranger = await createFilePlatformSigner(dirs[1]!);
    escrowId = await insertBitcoinDealEscrow(database.db);
  });
  afterAll(async () => {
    await database?.close();
    for (const dir of dirs ?? []) await rm(dir, { recursive: true, force: true });
  });

  const leg = (name: 'asset' | 'stable', chain: string, platformSigner: string, platformKeyIndex: number) =>
    placeholderLeg(escrowId, { leg: name, chain, platformSigner, platformKeyIndex });

  it("starts with the keys the open escrows were made with, and refuses another replica's keys on either chain", async () => {
    await database.db
      .insert(schema.escrowLegs)
      .values([
        leg('asset', 'BTC', await platform.bitcoin.publicKey(7), 7),
        leg('stable', 'ETH', platform.ethereumAddress, 8),
      ]);
    await expect(checkPlatformSigner(database.db, platform)).resolves.toBeUndefined();
    await expect(checkPlatformSigner(database.db, stranger)).rejects.toThrow(/platform-ethereum\.key/);
    // Bitcoin alone: each leg's platform key is the child of its index, which only the same root gives.
    await expect(
      checkPlatformSigner(database.db, {
        ethereumAddress: platform.ethereumAddress,
        bitcoin: stranger.bitcoin,
        solana: platform.solana,
      }),
    ).rejects.toThrow(
      /BTC key 7 \([0-9a-f]{66}\) is not the one an open escrow was made with[\s\S]*platform-bitcoin\.key/,
    );
    // Solana alike: a multisig signer per leg index.
    const solanaEscrowId = await insertBitcoinDealEscrow(database.db);
    await database.db.insert(schema.escrowLegs).values(
      placeholderLeg(solanaEscrowId, {
        leg: 'asset',
        chain: 'SOL',
        platformSigner: (await platform.solana.legSigner(9)).address,
        platformKeyIndex: 9,
      }),
    );
    await expect(checkPlatformSigner(database.db, platform)).resolves.toBeUndefined();
    await expect(checkPlatformSigner(database.db, { ...platform, solana: stranger.solana })).rejects.toThrow(
      /SOL key 9 \([1-9A-HJ-NP-Za-km-z]{32,44}\) is not the one[\s\S]*platform-solana\.key/,
    );
    // A settled escrow's legs no longer matter.
    await database.db
      .update(schema.escrows)
      .set({ status: 'settled' })
      .where(inArray(schema.escrows.id, [escrowId, solanaEscrowId]));
    await expect(checkPlatformSigner(database.db, stranger)).resolves.toBeUndefined();
  });
});
