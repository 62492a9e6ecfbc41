import { type Db, schema } from '@covenant/db';
import {
  AppError,
  type BitcoinNetwork,
  type Chain,
  type escrowKeyEncryptionSchema,
  type escrowKeyRequestSchema,
} from '@covenant/domain';
import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../deals/append-deal-event.js';
import { connectWallet, signsOpenEscrow } from './connect-wallet.js';

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
 * Replacing follows `connectWallet`'s rule on every chain the seed signs for, so a key that signs an
 * open escrow stays (409 CONFLICT): the escrow's custody was derived from it. The server cannot read the seed; it
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
    if (wallet.changed) await refuseWhileOtherChainsSign(tx, userId);
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

const chainNames: Record<string, string> = { BTC: 'Bitcoin', SOL: 'Solana' };

/**
 * The seed holds the Bitcoin and Solana keys too, which the browser registers after saving it: a
 * seed replaced while one of them signs an open escrow would leave that leg with a key its owner no
 * longer has (a Bitcoin or Solana refund needs the depositor's signature). Each such signer is
 * locked, so a concurrent registration waits.
 */
async function refuseWhileOtherChainsSign(tx: Transaction, userId: string): Promise<void> {
  const signers = await tx
    .select({ chain: schema.walletAddresses.chain, address: schema.walletAddresses.address })
    .from(schema.walletAddresses)
    .where(and(eq(schema.walletAddresses.userId, userId), ne(schema.walletAddresses.chain, 'ETH')))
    .orderBy(schema.walletAddresses.chain)
    .for('update');
  for (const signer of signers) {
    if (await signsOpenEscrow(tx, userId, signer.chain as Chain, signer.address)) {
      throw new AppError(
        'CONFLICT',
        `Your escrow key cannot change while an escrow you sign for on ${chainNames[signer.chain] ?? signer.chain} is open`,
      );
    }
  }
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
