import { type TradingTier, tierLimitMessage, tradingTiers } from '@covenant/domain';
import { ApiError } from '@/lib/api-client.js';

// The toast for a create-trade request the server refused. Its own tier-limit and KYC answers read
// like the form's checks, the partner's tier limit, a leg's minimum, a chain or a text it refuses is
// named; anything else is the spec's generic failure.
export function describeCreateDealError(error: unknown): { title: string; message: string } {
  if (error instanceof ApiError && error.code === 'TIER_LIMIT_EXCEEDED') {
    const tier = error.details?.tier;
    const limit = error.details?.limit_usd;
    if (isTradingTier(tier) && typeof limit === 'string' && /^\d+$/.test(limit)) {
      return { title: 'Tier Limit Exceeded', message: tierLimitMessage(tier, BigInt(limit)) };
    }
    // The partner's limit: the server's sentence names neither its tier nor its limit.
    if (error.details?.party === 'counterparty') {
      return { title: 'Tier Limit Exceeded', message: error.message };
    }
  }
  if (error instanceof ApiError && error.code === 'KYC_REQUIRED') {
    return { title: 'KYC Required', message: 'Please complete KYC verification before trading.' };
  }
  // The server's own words: which chain is not available yet, or which text it refused and why.
  if (error instanceof ApiError && error.code === 'CHAIN_NOT_AVAILABLE') {
    return { title: 'Chain Not Available', message: error.message };
  }
  if (error instanceof ApiError && error.code === 'AMOUNT_BELOW_MINIMUM') {
    return { title: 'Amount Too Small', message: error.message };
  }
  if (error instanceof ApiError && error.code === 'INVALID_TEXT') {
    return { title: 'Invalid Text', message: error.message };
  }
  return { title: 'Error', message: 'Failed to create trade. Please try again.' };
}

function isTradingTier(value: unknown): value is TradingTier {
  return typeof value === 'string' && (tradingTiers as readonly string[]).includes(value);
}
