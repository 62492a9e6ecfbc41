import type { EscrowStatusView } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, ApiError, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** Escrow states after which nothing moves any more, so polling stops. */
const finalStatuses: ReadonlySet<EscrowStatusView['status']> = new Set(['settled', 'refunded']);

/**
 * How often the escrow is asked again while deposits and payouts are under way, in case a change
 * was missed: the deal page's live stream announces each change as it commits (`escrow` events).
 */
const pollMs = 30_000;

/** `GET /api/v1/deals/{id}/escrow`: both legs, their deposits and payouts, as the caller sees them. */
export function getEscrow(api: ApiClient, dealId: string): Promise<EscrowStatusView> {
  return api.get<EscrowStatusView>(`/deals/${encodeURIComponent(dealId)}/escrow`);
}

export function escrowQueryKey(userId: string | undefined, dealId: string) {
  return ['escrow', userId, dealId] as const;
}

/**
 * The deal page's live stream re-reads the escrow when it changes (a deposit seen or one block
 * deeper, a payout built, approved, sent or confirmed); besides, it is asked again every 30 s until
 * it is settled or refunded. A 404 (no escrow yet) is an answer too: it is re-read likewise, so an
 * escrow the other party opens appears without a reload.
 */
export function getEscrowQueryOptions(
  api: ApiClient,
  userId: string | undefined,
  dealId: string,
  enabled: boolean,
) {
  return queryOptions({
    queryKey: escrowQueryKey(userId, dealId),
    queryFn: () => getEscrow(api, dealId),
    enabled: enabled && Boolean(userId),
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 1,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status && finalStatuses.has(status) ? false : pollMs;
    },
  });
}

export function useEscrow(dealId: string, enabled: boolean) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getEscrowQueryOptions(api, user?.id, dealId, enabled));
}
