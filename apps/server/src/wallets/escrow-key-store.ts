import { type Db, schema } from '@covenant/db';
import type { BitcoinNetwork, escrowKeyEncryptionSchema, escrowKeyRequestSchema } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { connectWallet } from './connect-wallet.js';

type EscrowKeyEncryption = z.infer<typeof escrowKeyEncryptionSchema>;

/** A user's escrow seed as the browser encrypted it, and the Ethereum address derived from it. */
export interface StoredEscrowKey {
  ciphertext: string;
  encryption: EscrowKeyEncryption;
  /** EIP-55 checksummed, as registered with `wallets/connect`. */
  ethereumAddress: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Stores (or replaces) the caller's encrypted escrow seed and registers its Ethereum address as the
 * caller's signer, in one transaction: the stored key and the registered address never disagree.
 * Replacing follows `connectWallet`'s rule, so a key whose address signs a funded escrow stays
 * (409 CONFLICT): the escrow's custody was derived from it. The server cannot read the seed; it
 * keeps the ciphertext so the user can unlock it on any device with the escrow password.
 */
export async function saveEscrowKey(
  deps: { db: Db; now: () => Date; bitcoinNetwork: BitcoinNetwork },
  userId: string,
  key: z.infer<typeof escrowKeyRequestSchema>,
): Promise<StoredEscrowKey> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    // Inside this transaction connectWallet runs as a savepoint, and its lock on the wallet row
    // orders concurrent replacements.
    const wallet = await connectWallet({ ...deps, db: tx }, userId, 'ETH', key.ethereum_address);
    const values = {
      ciphertext: key.ciphertext,
      encryption: key.encryption,
      ethereumAddress: wallet.address,
      updatedAt: now,
    };
    const [row] = await tx
      .insert(schema.escrowKeys)
      .values({ userId, ...values, createdAt: now })
      .onConflictDoUpdate({ target: schema.escrowKeys.userId, set: values })
      .returning();
    if (!row) throw new Error('escrow key upsert returned no row');
    return toStoredEscrowKey(row);
  });
}

/** The caller's encrypted escrow seed, or null before they created one. */
export async function findEscrowKey(db: Db, userId: string): Promise<StoredEscrowKey | null> {
  const [row] = await db.select().from(schema.escrowKeys).where(eq(schema.escrowKeys.userId, userId));
  return row ? toStoredEscrowKey(row) : null;
}

function toStoredEscrowKey(row: typeof schema.escrowKeys.$inferSelect): StoredEscrowKey {
  return {
    ciphertext: row.ciphertext,
    // Written only by saveEscrowKey from a validated request.
    encryption: row.encryption as EscrowKeyEncryption,
    ethereumAddress: row.ethereumAddress,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
