import type { MeetingCheckIn } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** The other party's code (typed, or the QR's text as scanned) and, with consent, the phone's position. */
export type MeetingCheckInInput = {
  token: string;
  method: 'qr' | 'code';
  latitude?: number;
  longitude?: number;
  accuracy?: number;
};

/** `POST /api/v1/deals/{id}/meeting/check-in`. */
export function checkInAtMeeting(api: ApiClient, dealId: string, input: MeetingCheckInInput) {
  return api.post<MeetingCheckIn>(`/deals/${encodeURIComponent(dealId)}/meeting/check-in`, { body: input });
}

export function useCheckInAtMeeting(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MeetingCheckInInput) => checkInAtMeeting(api, dealId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
