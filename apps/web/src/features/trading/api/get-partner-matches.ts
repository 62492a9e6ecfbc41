import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { Partner } from './get-partners.js';

/** A suggested counterparty: what the partners list shows, the fit (0–100) and why. */
export type PartnerMatch = Partner & { score: number; reasons: string[] };

export type PartnerMatches = {
  // Why there are no suggestions at all (no KYC, no CIS, a denied jurisdiction), or ready.
  status: 'ready' | 'kyc_required' | 'cis_required' | 'jurisdiction_denied';
  message: string | null;
  data: PartnerMatch[];
};

export function getPartnerMatches(api: ApiClient): Promise<PartnerMatches> {
  return api.get<PartnerMatches>('/partners/matches', { query: { limit: 10 } });
}

export function getPartnerMatchesQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['partner-matches', userId],
    queryFn: () => getPartnerMatches(api),
    enabled: Boolean(userId),
  });
}

export function usePartnerMatches() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getPartnerMatchesQueryOptions(api, user?.id));
}
