import type { MeetingViewBase } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `POST /api/v1/deals/{id}/meeting/waive`: the caller waives the meeting; answers the meeting view. */
export function waiveMeeting(api: ApiClient, dealId: string): Promise<MeetingViewBase> {
  return api.post<MeetingViewBase>(`/deals/${encodeURIComponent(dealId)}/meeting/waive`);
}

export function useWaiveMeeting(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => waiveMeeting(api, dealId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
