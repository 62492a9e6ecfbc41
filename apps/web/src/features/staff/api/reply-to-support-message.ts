import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { SupportMessageDetail } from './support-message.js';

// The server e-mails the reply to the sender before it adds it to the thread.
export function replyToSupportMessage(api: ApiClient, id: string, body: string) {
  return api.post<SupportMessageDetail>(`/staff/support/messages/${encodeURIComponent(id)}/replies`, {
    body: { body },
  });
}

export function useReplyToSupportMessage(id: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => replyToSupportMessage(api, id, body),
    onSuccess: (message) => {
      queryClient.setQueryData(['staff-support-message', user?.id, id], message);
      queryClient.invalidateQueries({ queryKey: ['staff-support-messages'] });
      toast.success('Reply sent', { description: `E-mailed to ${message.email}` });
    },
    onError: (error) =>
      toast.error('Reply not sent', { description: `${error.message}. Your text is kept.` }),
  });
}
