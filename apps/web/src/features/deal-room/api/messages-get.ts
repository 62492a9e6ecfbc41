import type { DealMessage, DealMessagePage } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `GET /api/v1/deals/{id}/messages?cursor=`: one page of the room's messages, oldest first. */
export function getDealMessagesPage(
  api: ApiClient,
  dealId: string,
  cursor?: string,
): Promise<DealMessagePage> {
  return api.get<DealMessagePage>(`/deals/${encodeURIComponent(dealId)}/messages`, { query: { cursor } });
}

/** Every page, oldest first: a deal room holds a conversation of a few dozen messages, not thousands. */
export async function getDealMessages(api: ApiClient, dealId: string): Promise<DealMessage[]> {
  const messages: DealMessage[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await getDealMessagesPage(api, dealId, cursor);
    messages.push(...page.data);
    if (!page.has_more || !page.next_cursor) return messages;
    cursor = page.next_cursor;
  }
}

// Under the deal's own key, so a live event (which refreshes the deal) refreshes the messages too.
export function getDealMessagesQueryOptions(api: ApiClient, userId: string | undefined, dealId: string) {
  return queryOptions({
    queryKey: ['deals', userId, dealId, 'messages'],
    queryFn: () => getDealMessages(api, dealId),
    enabled: Boolean(userId),
  });
}

export function useDealMessages(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getDealMessagesQueryOptions(api, user?.id, dealId));
}
