import type { MeetingViewBase } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `GET /api/v1/deals/{id}/meeting`: the meeting, its status, check-ins (with positions) and waivers. */
export function getDealMeeting(api: ApiClient, dealId: string): Promise<MeetingViewBase> {
  return api.get<MeetingViewBase>(`/deals/${encodeURIComponent(dealId)}/meeting`);
}

// Under the deal's own key, so the live updates that refresh the deal refresh its meeting too.
export function getDealMeetingQueryOptions(
  api: ApiClient,
  userId: string | undefined,
  dealId: string,
  required: boolean,
) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'meeting'],
    queryFn: () => getDealMeeting(api, dealId),
    enabled: Boolean(userId) && required,
  });
}

/** Only asked for when the deal's terms require a meeting (`required`). */
export function useDealMeeting(dealId: string, required: boolean) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealMeetingQueryOptions(api, user?.id, dealId, required));
}
