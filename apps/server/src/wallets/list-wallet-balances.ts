import { type Db, schema } from '@covenant/db';
import type { Chain } from '@covenant/domain';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import type { ChainRegistry } from '../chains/chain-registry.js';
import { readEthereumBalances, type TokenBalance } from './read-ethereum-balances.js';

export interface WalletBalances {
  chain: Chain;
  address: string;
  /** Null when the platform has no node for the chain or the node did not answer. */
  balances: TokenBalance[] | null;
  heldInEscrow: { symbol: string; amount: bigint }[];
}

/** Leg states in which the whole required amount sits in the escrow. */
const heldLegStates = ['funded', 'releasing', 'refunding'] as const;

/**
 * The caller's registered addresses with their on-chain balances, and per chain what the caller has
 * deposited into escrows that still hold it: the required amount of each fully funded leg the
 * caller deposits (the seller the asset leg, the buyer the stable leg).
 */
export async function listWalletBalances(
  deps: { db: Db; chains: ChainRegistry },
  userId: string,
): Promise<WalletBalances[]> {
  const [wallets, held] = await Promise.all([
    deps.db
      .select({ chain: schema.walletAddresses.chain, address: schema.walletAddresses.address })
      .from(schema.walletAddresses)
      .where(eq(schema.walletAddresses.userId, userId))
      .orderBy(asc(schema.walletAddresses.chain)),
    heldInEscrow(deps.db, userId),
  ]);
  return Promise.all(
    wallets.map(async (wallet) => ({
      chain: wallet.chain as Chain,
      address: wallet.address,
      balances: await readBalances(deps.chains, wallet.chain, wallet.address),
      heldInEscrow: held
        .filter((row) => row.chain === wallet.chain)
        .map((row) => ({ symbol: row.symbol, amount: BigInt(row.amount) })),
    })),
  );
}

async function readBalances(
  chains: ChainRegistry,
  chain: string,
  address: string,
): Promise<TokenBalance[] | null> {
  // Only Ethereum signers are addresses that hold a balance: a Bitcoin signer is a public key.
  const served = chains.chains.find((info) => info.chain === chain);
  if (!served || chain !== 'ETH') return null;
  return readEthereumBalances(served, address as Address);
}

function heldInEscrow(db: Db, userId: string) {
  const legs = schema.escrowLegs;
  return db
    .select({
      chain: legs.chain,
      symbol: legs.symbol,
      amount: sql<string>`sum(${legs.requiredAmount})::text`,
    })
    .from(legs)
    .innerJoin(schema.escrows, eq(schema.escrows.id, legs.escrowId))
    .innerJoin(schema.deals, eq(schema.deals.id, schema.escrows.dealId))
    .where(
      and(
        inArray(legs.state, [...heldLegStates]),
        or(
          and(eq(legs.leg, 'asset'), eq(schema.deals.sellerId, userId)),
          and(eq(legs.leg, 'stable'), eq(schema.deals.buyerId, userId)),
        ),
      ),
    )
    .groupBy(legs.chain, legs.symbol)
    .orderBy(asc(legs.chain), asc(legs.symbol));
}
