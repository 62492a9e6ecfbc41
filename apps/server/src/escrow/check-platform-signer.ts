import type { Db } from '@covenant/db';
import { schema } from '@covenant/db';
import { and, eq, ne, notInArray } from 'drizzle-orm';
import type { PlatformSigner } from './platform-signer.js';

/** Open Bitcoin and Solana legs compared with the platform's keys at start (each has its own child key). */
const childKeyLegsChecked = 20;

/**
 * Refuses to run the engine with a platform key other than the one the open escrows were made
 * with. Every replica must hold the same keys (DATA_DIR/keys/platform-ethereum.key and
 * platform-bitcoin.key and platform-solana.key on a shared volume, or the same files on each, ADR 017): a replica that
 * generated its own would co-sign payouts that no escrow accepts, and the legs' money would wait
 * (on Ethereum for the settlement window; on Bitcoin, which has no deadline refund, until staff act).
 */
export async function checkPlatformSigner(
  db: Db,
  signer: Pick<PlatformSigner, 'ethereumAddress' | 'bitcoin' | 'solana'>,
): Promise<void> {
  const open = notInArray(schema.escrows.status, ['settled', 'refunded']);
  const others = await db
    .selectDistinct({ signer: schema.escrowLegs.platformSigner })
    .from(schema.escrowLegs)
    .innerJoin(schema.escrows, eq(schema.escrows.id, schema.escrowLegs.escrowId))
    .where(
      and(
        open,
        eq(schema.escrowLegs.chain, 'ETH'),
        ne(schema.escrowLegs.platformSigner, signer.ethereumAddress),
      ),
    )
    .limit(3);
  if (others.length > 0) {
    throw new Error(
      `the platform's escrow key (${signer.ethereumAddress}) is not the one open escrows were made with ` +
        `(${others.map((row) => row.signer).join(', ')}): every server replica must use the same ` +
        'DATA_DIR/keys/platform-ethereum.key (ADR 017)',
    );
  }
  const childKeys: Record<string, { file: string; expected: (index: number) => Promise<string> }> = {
    BTC: { file: 'platform-bitcoin.key', expected: (index) => signer.bitcoin.publicKey(index) },
    SOL: {
      file: 'platform-solana.key',
      expected: async (index) => (await signer.solana.legSigner(index)).address,
    },
  };
  for (const [chain, key] of Object.entries(childKeys)) {
    const legs = await db
      .select({ signer: schema.escrowLegs.platformSigner, index: schema.escrowLegs.platformKeyIndex })
      .from(schema.escrowLegs)
      .innerJoin(schema.escrows, eq(schema.escrows.id, schema.escrowLegs.escrowId))
      .where(and(open, eq(schema.escrowLegs.chain, chain)))
      .limit(childKeyLegsChecked);
    for (const leg of legs) {
      const expected = await key.expected(leg.index);
      if (expected !== leg.signer) {
        throw new Error(
          `the platform's ${chain} key ${leg.index} (${expected}) is not the one an open escrow was made with ` +
            `(${leg.signer}): every server replica must use the same DATA_DIR/keys/${key.file} (ADR 017)`,
        );
      }
    }
  }
}
