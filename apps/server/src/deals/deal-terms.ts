import { type Db, schema } from '@covenant/db';
import {
  AppError,
  chainNotAvailableMessage,
  type DealParty,
  type DealStatus,
  type DealTerms,
  escrowChains,
  isEscrowChain,
  isStableChain,
  isStableSymbol,
  type Meeting,
  parseBaseUnits,
  type StableSymbol,
  symbolFitsChain,
  type TokenSymbol,
  tierLimitUsd,
  validateCounterparty,
  validateNewTrade,
} from '@covenant/domain';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Transaction } from './append-deal-event.js';

/** The profile fields the trading rules read, for the caller and the counterparty. */
export interface TraderProfile {
  id: string;
  username: string | null;
  verificationStatus: schema.VerificationStatus;
  tradingTier: schema.TradingTier;
  kycCompleted: boolean;
  tierLimitUsd: string | null;
}

/**
 * Several traders' profiles in one query, by user id (users without a profile are missing); `db` is
 * the transaction when the caller holds a deal's lock.
 */
export async function loadTraderProfiles(
  db: Db | Transaction,
  userIds: string[],
): Promise<Map<string, TraderProfile>> {
  const rows = await db
    .select({
      id: schema.profiles.id,
      username: schema.profiles.username,
      verificationStatus: schema.profiles.verificationStatus,
      tradingTier: schema.profiles.tradingTier,
      kycCompleted: schema.profiles.kycCompleted,
      tierLimitUsd: schema.profiles.tierLimitUsd,
    })
    .from(schema.profiles)
    .where(inArray(schema.profiles.id, userIds));
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Checks terms proposed by a trader (`profile`, undefined without one) with counterparty
 * `counterpartyId`: both legs on chains whose escrow runs, symbols that fit their chains, then the create-trade rules in the spec's order
 * (KYC, partner, amounts, maximum) and the trader's tier limit (the counterparty's is
 * `checkCounterparty`). Throws the first failure as an
 * AppError; answers the amounts as bigints.
 */
export function checkDealTerms(
  profile: TraderProfile | undefined,
  counterpartyId: string | null,
  terms: DealTerms,
): { assetAmount: bigint; stableAmount: bigint } {
  // A leg on a chain without escrow would be accepted now and fail only at funding.
  for (const chain of new Set([terms.asset_chain, terms.stable_chain])) {
    if (!isEscrowChain(chain)) {
      throw new AppError('CHAIN_NOT_AVAILABLE', chainNotAvailableMessage(chain), {
        chain,
        available: [...escrowChains],
      });
    }
  }
  const fields: Record<string, string> = {};
  if (!symbolFitsChain(terms.asset_chain, terms.asset_symbol)) {
    fields.asset_symbol = `${terms.asset_symbol} is not a token on ${terms.asset_chain}`;
  }
  if (
    !isStableChain(terms.stable_chain) ||
    !isStableSymbol(terms.stable_symbol) ||
    !symbolFitsChain(terms.stable_chain, terms.stable_symbol)
  ) {
    fields.stable_symbol = `${terms.stable_symbol} is not a stablecoin on ${terms.stable_chain}`;
  }
  if (Object.keys(fields).length > 0) {
    throw new AppError('VALIDATION_FAILED', 'The symbols do not fit their chains', { fields });
  }
  const assetAmount = parseBaseUnits(terms.asset_amount);
  const stableAmount = parseBaseUnits(terms.stable_amount);
  const failure = validateNewTrade({
    profile: profile
      ? {
          kycCompleted: profile.kycCompleted,
          tradingTier: profile.tradingTier,
          tierLimitUsd: limitOf(profile),
        }
      : null,
    counterpartyId,
    // Both symbols were checked above.
    assetSymbol: terms.asset_symbol as TokenSymbol,
    assetAmount,
    stableSymbol: terms.stable_symbol as StableSymbol,
    stableAmount,
  });
  if (failure) {
    // Without a profile the caller has never been through KYC; the session itself is valid.
    const code = failure.code === 'UNAUTHORIZED' ? 'KYC_REQUIRED' : failure.code;
    throw new AppError(code, failure.message, failure.details);
  }
  return { assetAmount: assetAmount!, stableAmount: stableAmount! };
}

/**
 * Checks the other party to terms already checked with `checkDealTerms` (`counterparty`, undefined
 * without a profile): KYC complete and the stable leg within its tier limit, at creation, at each
 * proposal and at acceptance. Throws the failure as an AppError that names neither its tier nor its
 * limit.
 */
export function checkCounterparty(
  counterparty: TraderProfile | undefined,
  terms: Pick<DealTerms, 'stable_symbol'>,
  stableAmount: bigint,
): void {
  const failure = validateCounterparty(
    counterparty ? { kycCompleted: counterparty.kycCompleted, tierLimitUsd: limitOf(counterparty) } : null,
    // checkDealTerms checked the symbol first.
    terms.stable_symbol as StableSymbol,
    stableAmount,
  );
  if (failure) throw new AppError(failure.code, failure.message, failure.details);
}

function limitOf(profile: TraderProfile): bigint | null {
  return tierLimitUsd(
    profile.tradingTier,
    profile.tierLimitUsd === null ? null : BigInt(profile.tierLimitUsd),
  );
}

/**
 * Refuses a meeting whose first day has already passed when it is proposed (UTC, with a day of grace
 * for time zones): nobody can check in at a meeting that is over.
 */
export function checkMeetingDate(meeting: Meeting | undefined | null, now: Date): void {
  if (!meeting) return;
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  if (meeting.starts_on < yesterday) {
    throw new AppError('VALIDATION_FAILED', 'The meeting’s first day has already passed', {
      fields: { 'meeting.starts_on': `must be ${yesterday} or later` },
    });
  }
}

/**
 * The caller's deal with its row locked until the transaction ends, and the caller's side of it: the
 * terms, addresses and acceptance use cases decide under this lock, so of two concurrent requests the
 * second sees what the first did. Anybody else's deal is NOT_FOUND, never FORBIDDEN.
 */
export async function lockPartyDeal(
  tx: Transaction,
  userId: string,
  dealId: string,
): Promise<{ deal: typeof schema.deals.$inferSelect; party: DealParty }> {
  const [deal] = await tx
    .select()
    .from(schema.deals)
    .where(
      and(
        eq(schema.deals.id, dealId),
        or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
      ),
    )
    .for('update');
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  return { deal, party: userId === deal.buyerId ? 'buyer' : 'seller' };
}

/**
 * Inside the transaction that holds the deal's row lock (`lockPartyDeal`): refuses with 409
 * DEAL_NOT_ACTIVE a new proposal, a change of addresses or an acceptance once the deal's escrow is
 * open. The escrow is built from the terms accepted when it opened and keeps them (an Ethereum leg's
 * contract address commits to its amount and addresses), so new terms would never reach it: it would
 * go on paying the old amounts and addresses, while the deal, back in negotiation, would hold its
 * deposits with no funding deadline. `createEscrow` writes the escrow under the same lock, only while
 * the deal is terms_agreed, so of the two the second sees what the first did.
 */
export async function refuseOnceEscrowOpened(
  tx: Transaction,
  dealId: string,
  status: DealStatus,
): Promise<void> {
  const [escrow] = await tx
    .select({ id: schema.escrows.id })
    .from(schema.escrows)
    .where(eq(schema.escrows.dealId, dealId));
  if (escrow) {
    throw new AppError(
      'DEAL_NOT_ACTIVE',
      'The deal can no longer be modified: its escrow is open on the agreed terms and addresses',
      { status, reason: 'escrow_opened' },
    );
  }
}
