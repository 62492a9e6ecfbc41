import { randomUUID } from 'node:crypto';
import { type Db, schema } from '@covenant/db';

/** A BTC-for-USDT deal between two new users with its escrow, straight into the database: the escrow's id. */
export async function insertBitcoinDealEscrow(db: Db): Promise<string> {
  const tag = randomUUID();
  const [buyer, seller] = await db
    .insert(schema.users)
    .values([{ email: `buyer-${tag}@example.com` }, { email: `seller-${tag}@example.com` }])
    .returning({ id: schema.users.id });
  const [deal] = await db
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
  const [escrow] = await db
    .insert(schema.escrows)
    .values({ dealId: deal!.id })
    .returning({ id: schema.escrows.id });
  return escrow!.id;
}

/** An escrow leg row with placeholder addresses and signers, for tests of what reads the rows. */
export function placeholderLeg(
  escrowId: string,
  overrides: Partial<typeof schema.escrowLegs.$inferInsert> = {},
): typeof schema.escrowLegs.$inferInsert {
  const chain = overrides.chain ?? 'BTC';
  return {
    escrowId,
    leg: 'asset',
    chain,
    symbol: chain === 'BTC' ? 'BTC' : 'USDT',
    requiredAmount: '1',
    depositAddress: `deposit-${overrides.leg ?? 'asset'}`,
    depositorRefundAddress: 'refund',
    receiverPayoutAddress: 'payout',
    buyerSigner: 'buyer',
    sellerSigner: 'seller',
    platformSigner: 'platform',
    requiredConfirmations: 2,
    deadline: new Date(Date.now() + 3_600_000),
    ...overrides,
  };
}

/** What a leg of a test escrow is and holds: its required amount and its confirmed deposits (base units). */
export interface TestLegFunding {
  chain: string;
  symbol: string;
  required: string;
  received: string;
}

/**
 * Both legs of an escrow, straight into the database, each with one confirmed deposit of `received`
 * (none when it is 0): what a mediator's decision and the escrow engine read of how funded it is.
 */
export async function insertEscrowLegs(
  db: Db,
  escrowId: string,
  legs: Record<'asset' | 'stable', TestLegFunding>,
): Promise<void> {
  for (const leg of ['asset', 'stable'] as const) {
    const { chain, symbol, required, received } = legs[leg];
    await db.insert(schema.escrowLegs).values(
      placeholderLeg(escrowId, {
        leg,
        chain,
        symbol,
        requiredAmount: required,
        depositAddress: `deposit-${escrowId}-${leg}`,
      }),
    );
    if (BigInt(received) === 0n) continue;
    await db.insert(schema.escrowLedgerEntries).values({
      escrowId,
      leg,
      chain,
      kind: 'deposit',
      amount: received,
      txRef: `deposit-${escrowId}-${leg}`,
      position: 0,
      status: 'confirmed',
    });
  }
}
