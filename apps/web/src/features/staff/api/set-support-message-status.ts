import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { SupportMessageDetail, SupportStatus } from './support-message.js';

export function setSupportMessageStatus(api: ApiClient, id: string, status: SupportStatus) {
  return api.post<SupportMessageDetail>(`/staff/support/messages/${encodeURIComponent(id)}/status`, {
    body: { status },
  });
}

export function useSetSupportMessageStatus(id: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: SupportStatus) => setSupportMessageStatus(api, id, status),
    onSuccess: (message) => {
      queryClient.setQueryData(['staff-support-message', user?.id, id], message);
      queryClient.invalidateQueries({ queryKey: ['staff-support-messages'] });
      toast.success('Status updated');
    },
    onError: (error) => toast.error('Status not changed', { description: error.message }),
  });
}
