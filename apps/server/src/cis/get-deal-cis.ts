import type { DealCis } from '@covenant/domain';
import type { CisDeps } from './cis-deps.js';
import { readPartyDeal } from './deal-party.js';
import { loadDealCis } from './load-deal-cis.js';

/** The CIS exchange of one of the caller's deals: both sides' sheets, the counterparty's included. */
export async function getDealCis(
  deps: Pick<CisDeps, 'db' | 'fileStore'>,
  userId: string,
  dealId: string,
): Promise<DealCis> {
  await readPartyDeal(deps.db, userId, dealId);
  return loadDealCis(deps, dealId);
}
