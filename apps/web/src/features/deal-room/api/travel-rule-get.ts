import type { TravelRuleDocument, TravelRulePreview } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function getTravelRulePreview(api: ApiClient, dealId: string) {
  return api.get<TravelRulePreview>(`/deals/${encodeURIComponent(dealId)}/travel-rule/preview`);
}

export function getTravelRuleDocument(api: ApiClient, dealId: string) {
  return api.get<TravelRuleDocument>(`/deals/${encodeURIComponent(dealId)}/travel-rule`);
}

// Under the deal's key: a change to the deal (its escrow opening, new addresses) refreshes both.
export function getTravelRulePreviewQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'travel-rule', 'preview'],
    queryFn: () => getTravelRulePreview(api, dealId),
    enabled: Boolean(userId),
  });
}

export function getTravelRuleDocumentQueryOptions(
  api: ApiClient,
  userId: string | undefined,
  dealId: string,
  exchanged: boolean,
) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'travel-rule', 'document'],
    queryFn: () => getTravelRuleDocument(api, dealId),
    enabled: Boolean(userId) && exchanged,
  });
}

/** What the Travel Rule asks of the deal as it stands: the viewer's own IVMS 101 person and any gaps. */
export function useTravelRulePreview(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getTravelRulePreviewQueryOptions(api, user?.id, dealId));
}

/** The IVMS 101 document exchanged when the escrow opened (only asked for once it was). */
export function useTravelRuleDocument(dealId: string, exchanged: boolean) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getTravelRuleDocumentQueryOptions(api, user?.id, dealId, exchanged));
}
