import { type Db, schema } from '@covenant/db';
import {
  AppError,
  type BitcoinNetwork,
  type DealPartyAddresses,
  isChain,
  nextDealStatus,
  partyAddressChains,
  validateChainAddress,
} from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { appendDealEvent } from './append-deal-event.js';
import { lockPartyDeal, refuseOnceEscrowOpened } from './deal-terms.js';
import { type DealView, presentDeal, selectDealViews } from './deal-view.js';

export interface DealAddressDeps {
  db: Db;
  now: () => Date;
  bitcoinNetwork: BitcoinNetwork;
}

/**
 * Each party's addresses on the deal's current chains that do not fit their chain, by field, with the
 * reason (empty when both fit). Chains can change with a proposal after the addresses were set.
 */
export function misfitAddresses(
  party: 'buyer' | 'seller',
  deal: { asset_chain: string; stable_chain: string },
  addresses: DealPartyAddresses,
  bitcoinNetwork: BitcoinNetwork,
): Record<string, string> {
  if (!isChain(deal.asset_chain) || !isChain(deal.stable_chain)) {
    return { payout_address: 'unknown chain', refund_address: 'unknown chain' };
  }
  const chains = partyAddressChains(party, {
    asset_chain: deal.asset_chain,
    stable_chain: deal.stable_chain,
  });
  const fields: Record<string, string> = {};
  for (const [field, chain, address] of [
    ['payout_address', chains.payout, addresses.payout_address],
    ['refund_address', chains.refund, addresses.refund_address],
  ] as const) {
    const check = validateChainAddress(chain, address, { bitcoinNetwork });
    if (!check.ok) fields[field] = `${check.reason} (${chain})`;
  }
  return fields;
}

/**
 * The caller sets its own payout address (on the chain it receives on) and refund address (on the
 * chain it deposits from), each checked for that chain's format and checksum. Addresses are part of
 * what is agreed: changing them after agreement reopens the negotiation and clears the accepted
 * version and its hash, until the escrow opens on them (then 409 DEAL_NOT_ACTIVE: the escrow pays the
 * addresses it opened with). Setting the addresses already stored changes nothing and records nothing.
 */
export async function setDealAddresses(
  deps: DealAddressDeps,
  userId: string,
  dealId: string,
  addresses: DealPartyAddresses,
  /** Throws when the caller may not replace addresses already set (ADR 013: a sensitive action). */
  confirmReplacingAddresses: () => void = () => undefined,
): Promise<DealView> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { deal, party } = await lockPartyDeal(tx, userId, dealId);
    const status = nextDealStatus(deal.status, 'set_addresses', party);
    await refuseOnceEscrowOpened(tx, dealId, deal.status);
    const fields = misfitAddresses(
      party,
      { asset_chain: deal.assetChain, stable_chain: deal.stableChain },
      addresses,
      deps.bitcoinNetwork,
    );
    if (Object.keys(fields).length > 0) {
      throw new AppError('VALIDATION_FAILED', 'An address does not fit its chain', { fields });
    }
    const where = and(eq(schema.dealAddresses.dealId, dealId), eq(schema.dealAddresses.party, party));
    const [stored] = await tx.select().from(schema.dealAddresses).where(where);
    if (
      stored?.payoutAddress === addresses.payout_address &&
      stored.refundAddress === addresses.refund_address
    ) {
      return;
    }
    // Replacing addresses already set is sensitive whatever the terms' state: were it only after
    // agreement, proposing the same terms again (which reopens the negotiation) would clear the way,
    // and the counterparty's routine re-acceptance would open the escrow on the new addresses.
    if (stored) confirmReplacingAddresses();
    await tx
      .insert(schema.dealAddresses)
      .values({
        dealId,
        party,
        payoutAddress: addresses.payout_address,
        refundAddress: addresses.refund_address,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [schema.dealAddresses.dealId, schema.dealAddresses.party],
        set: {
          payoutAddress: addresses.payout_address,
          refundAddress: addresses.refund_address,
          updatedAt: now,
        },
      });
    await tx
      .update(schema.deals)
      .set({ status, acceptedTermsVersion: null, termsHash: null, termsAgreedAt: null, updatedAt: now })
      .where(eq(schema.deals.id, dealId));
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'addresses_set',
      payload: {
        party,
        payout_address: addresses.payout_address,
        refund_address: addresses.refund_address,
        from_status: deal.status,
        to_status: status,
      },
      createdAt: now,
    });
  });
  const [row] = await selectDealViews(deps.db, eq(schema.deals.id, dealId));
  return presentDeal(row!, userId);
}
