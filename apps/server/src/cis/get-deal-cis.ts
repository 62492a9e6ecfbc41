import { type DealCis, dealCisSeenBy } from '@covenant/domain';
import type { CisDeps } from './cis-deps.js';
import { readPartyDeal } from './deal-party.js';
import { loadDealCis } from './load-deal-cis.js';

/**
 * The CIS exchange of one of the caller's deals: its own sheet, and the counterparty's once the
 * caller has attached one (ADR 022; null before, as if none were attached).
 */
export async function getDealCis(
  deps: Pick<CisDeps, 'db' | 'fileStore'>,
  userId: string,
  dealId: string,
): Promise<DealCis> {
  const { party } = await readPartyDeal(deps.db, userId, dealId);
  return dealCisSeenBy(await loadDealCis(deps, dealId), party);
}
