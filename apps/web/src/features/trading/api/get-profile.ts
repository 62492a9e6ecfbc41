import type { TradingTier } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type Profile = {
  id: string;
  email: string;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  verification_status: 'unverified' | 'pending' | 'verified' | 'rejected';
  trading_tier: TradingTier;
  kyc_completed: boolean;
  // Whole US dollars per transaction; null while the trader has no KYC.
  tier_limit_usd: string | null;
  roles: string[];
  // Not suggested to other traders as a counterparty.
  matching_opt_out: boolean;
};

export function getProfile(api: ApiClient): Promise<Profile> {
  return api.get<Profile>('/user/profile');
}

export function getProfileQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['profile', userId],
    queryFn: () => getProfile(api),
    enabled: Boolean(userId),
  });
}

export function useProfile() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getProfileQueryOptions(api, user?.id));
}
