import type { Db } from '@covenant/db';
import { schema } from '@covenant/db';
import { and, eq, ne, notInArray } from 'drizzle-orm';

/**
 * Refuses to run the engine with a platform key other than the one the open escrows were made
 * with. Every replica must hold the same key (DATA_DIR/keys/platform-ethereum.key on a shared
 * volume, or the same file on each, ADR 017): a replica that generated its own would co-sign
 * payouts that no escrow accepts, and the legs' money would wait for the settlement window.
 */
export async function checkPlatformSigner(db: Db, ethereumAddress: string): Promise<void> {
  const others = await db
    .selectDistinct({ signer: schema.escrowLegs.platformSigner })
    .from(schema.escrowLegs)
    .innerJoin(schema.escrows, eq(schema.escrows.id, schema.escrowLegs.escrowId))
    .where(
      and(
        notInArray(schema.escrows.status, ['settled', 'refunded']),
        eq(schema.escrowLegs.chain, 'ETH'),
        ne(schema.escrowLegs.platformSigner, ethereumAddress),
      ),
    )
    .limit(3);
  if (others.length === 0) return;
  throw new Error(
    `the platform's escrow key (${ethereumAddress}) is not the one open escrows were made with ` +
      `(${others.map((row) => row.signer).join(', ')}): every server replica must use the same ` +
      'DATA_DIR/keys/platform-ethereum.key (ADR 017)',
  );
}
