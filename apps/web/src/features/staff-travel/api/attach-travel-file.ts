import type { StaffTravelItem } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/** `POST /staff/travel/{item_id}/file`: the quote or booking confirmation, one PDF, PNG or JPEG. */
export function attachTravelFile(api: ApiClient, itemId: string, file: File) {
  const body = new FormData();
  body.append('file', file, file.name);
  return api.post<StaffTravelItem>(`/staff/travel/${encodeURIComponent(itemId)}/file`, { body });
}

export function useAttachTravelFile(itemId: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => attachTravelFile(api, itemId, file),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff-travel'] }),
  });
}
