import type {
  CannedReply,
  ChatConversation,
  OpenedChatConversation,
  StaffChatConversation,
  StaffChatSummary,
} from '@covenant/domain';
import { type ApiClient, ApiError } from '@/lib/api-client.js';

/** Where the browser keeps the visitor's conversation token. */
export const chatTokenStorageKey = 'covenant.live-chat-token';

async function visitorRequest<T>(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; bearer?: string; body?: unknown } = {},
): Promise<T> {
  const headers = new Headers({ Accept: 'application/json' });
  if (options.token) headers.set('X-Chat-Token', options.token);
  if (options.bearer) headers.set('Authorization', `Bearer ${options.bearer}`);
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  const response = await fetch(new URL(`/api/v1/chat${path}`, window.location.origin), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await response.json().catch(() => null)) as { error?: Record<string, unknown> } | null;
  if (!response.ok) {
    const error = body?.error ?? {};
    throw new ApiError(
      response.status,
      typeof error.code === 'string' ? error.code : 'INTERNAL_ERROR',
      typeof error.message === 'string' ? error.message : 'The chat could not be reached',
      (error.details as Record<string, unknown> | null) ?? null,
    );
  }
  return body as T;
}

export const liveChatApi = {
  status: () => visitorRequest<{ staff_online: boolean }>('GET', '/status'),
  open: (input: { email: string; body: string }, bearer: string | undefined) =>
    visitorRequest<OpenedChatConversation>('POST', '/conversations', { body: input, bearer }),
  get: (token: string) => visitorRequest<ChatConversation>('GET', '/conversation', { token }),
  write: (token: string, body: string) =>
    visitorRequest<ChatConversation>('POST', '/conversation/messages', { token, body: { body } }),
};

export const staffChatApi = {
  list: (api: ApiClient, status: 'open' | 'closed') =>
    api.get<{ data: StaffChatSummary[] }>('/staff/chat/conversations', { query: { status } }),
  get: (api: ApiClient, id: string) => api.get<StaffChatConversation>(`/staff/chat/conversations/${id}`),
  assign: (api: ApiClient, id: string) =>
    api.post<StaffChatConversation>(`/staff/chat/conversations/${id}/assign`),
  reply: (api: ApiClient, id: string, body: string) =>
    api.post<StaffChatConversation>(`/staff/chat/conversations/${id}/messages`, { body: { body } }),
  close: (api: ApiClient, id: string) =>
    api.post<StaffChatConversation>(`/staff/chat/conversations/${id}/close`),
  cannedReplies: (api: ApiClient) => api.get<{ data: CannedReply[] }>('/staff/chat/canned-replies'),
  addCannedReply: (api: ApiClient, input: { title: string; body: string }) =>
    api.post<CannedReply>('/staff/chat/canned-replies', { body: input }),
  removeCannedReply: (api: ApiClient, id: string) => api.delete(`/staff/chat/canned-replies/${id}`),
};
