import type { TradingTier } from '@covenant/domain';

type DealParty = { id: string; username: string | null; trading_tier: TradingTier | null };

// A deal as /api/v1 answers it; amounts are decimal strings in the token's base units.
export type Deal = {
  id: string;
  buyer_id: string;
  seller_id: string;
  counterparty_id: string;
  buyer: DealParty;
  seller: DealParty;
  asset_chain: string;
  asset_symbol: string;
  asset_amount: string;
  stable_chain: string;
  stable_symbol: string;
  stable_amount: string;
  meeting_required: boolean;
  travel_location: string | null;
  status: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
};

export type DealHistoryEntry = {
  seq: number;
  action: string;
  actor_id: string | null;
  created_at: string;
  details: Record<string, unknown> | null;
};
