import type { ContactMessage, SupportPriority } from '@covenant/domain';
import { useMutation } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/** What the sender learns once the message is stored: the reference to quote and our response target. */
export type SupportReceipt = {
  reference: string;
  priority: SupportPriority;
  response_target_hours: number;
  // False when the message is stored but our confirmation e-mail could not be sent.
  confirmation_sent: boolean;
};

export function sendContactMessage(api: ApiClient, message: ContactMessage) {
  return api.post<SupportReceipt>('/support/contact', { body: message });
}

// The client carries a signed-in sender's token, so the message is linked to the account.
export function useSendContactMessage() {
  const api = useApiClient();
  return useMutation({ mutationFn: (message: ContactMessage) => sendContactMessage(api, message) });
}
