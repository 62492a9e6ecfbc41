import type { TradingTier } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type Partner = {
  id: string;
  // Null when the trader chose none at sign-up.
  username: string | null;
  verification_status: string;
  trading_tier: TradingTier;
  kyc_completed: boolean;
};

// The server returns only verified, KYC-complete traders other than the caller.
export async function getPartners(api: ApiClient): Promise<Partner[]> {
  const { data } = await api.get<{ data: Partner[] }>('/partners', { query: { limit: 200 } });
  return data;
}

export function getPartnersQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['partners', userId],
    queryFn: () => getPartners(api),
    enabled: Boolean(userId),
  });
}

export function usePartners() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getPartnersQueryOptions(api, user?.id));
}
