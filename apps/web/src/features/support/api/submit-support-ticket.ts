import type { SupportTicket } from '@covenant/domain';
import { useMutation } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import type { SupportReceipt } from './send-contact-message.js';

export function submitSupportTicket(api: ApiClient, ticket: SupportTicket) {
  return api.post<SupportReceipt>('/support/tickets', { body: ticket });
}

export function useSubmitSupportTicket() {
  const api = useApiClient();
  return useMutation({ mutationFn: (ticket: SupportTicket) => submitSupportTicket(api, ticket) });
}
