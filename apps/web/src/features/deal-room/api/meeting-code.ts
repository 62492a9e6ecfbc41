import type { MeetingCode } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** Fetch the next code this long before the shown one expires, so the screen never shows a stale one. */
const refreshAheadMs = 5_000;

/** `GET /api/v1/deals/{id}/meeting/qr`: the caller's own check-in code for now (it changes every 60 s). */
export function getMeetingCode(api: ApiClient, dealId: string): Promise<MeetingCode> {
  return api.get<MeetingCode>(`/deals/${encodeURIComponent(dealId)}/meeting/qr`);
}

/** Milliseconds until the code should be replaced: shortly before it expires, at least a second. */
export function msUntilRefresh(code: MeetingCode, now: number): number {
  return Math.max(1_000, new Date(code.expires_at).getTime() - now - refreshAheadMs);
}

export function getMeetingCodeQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'meeting', 'code'],
    queryFn: () => getMeetingCode(api, dealId),
    enabled: Boolean(userId),
    // A refused code (check-in closed) is not retried: the message says why.
    retry: false,
    refetchInterval: (query) => (query.state.data ? msUntilRefresh(query.state.data, Date.now()) : false),
    refetchIntervalInBackground: true,
  });
}

/** Only fetched while `shown`: a code on a screen nobody looks at is a code that can leak. */
export function useMeetingCode(dealId: string, shown: boolean) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery({
    ...getMeetingCodeQueryOptions(api, user?.id, dealId),
    enabled: Boolean(user?.id) && shown,
  });
}
