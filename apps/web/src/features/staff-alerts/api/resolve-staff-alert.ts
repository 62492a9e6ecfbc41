import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import type { StaffAlert } from './get-staff-alerts.js';

/** `POST /staff/alerts/{id}/resolve`: compliance or an admin closes an open alert. */
export function resolveStaffAlert(api: ApiClient, id: string) {
  return api.post<StaffAlert>(`/staff/alerts/${encodeURIComponent(id)}/resolve`);
}

/**
 * Resolves an alert, then reads the list again so it disappears (also when someone else resolved it
 * first). The outcome is a toast, not text in the alert's row, because the row may be gone by then.
 */
export function useResolveStaffAlert(id: string, kind: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resolveStaffAlert(api, id),
    onSuccess: () => toast.success('Alert resolved', { description: kind }),
    onError: (error) => toast.error('Not resolved', { description: error.message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff-alerts'] }),
  });
}
