import type { Chain } from '../assets.js';

export type DealParty = 'buyer' | 'seller';

/**
 * The chains a party's addresses live on: it is paid out on the chain it receives on and refunded on
 * the chain it deposits from. The buyer receives the asset and deposits the stablecoin; the seller
 * receives the stablecoin and deposits the asset.
 */
export function partyAddressChains(
  party: DealParty,
  deal: { asset_chain: Chain; stable_chain: Chain },
): { payout: Chain; refund: Chain } {
  return party === 'buyer'
    ? { payout: deal.asset_chain, refund: deal.stable_chain }
    : { payout: deal.stable_chain, refund: deal.asset_chain };
}
