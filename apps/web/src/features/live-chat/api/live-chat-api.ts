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

async function visitorFetch(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; bearer?: string; body?: unknown },
): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json' });
  if (options.token) headers.set('X-Chat-Token', options.token);
  if (options.bearer) headers.set('Authorization', `Bearer ${options.bearer}`);
  // A FormData body (a file) is sent as multipart/form-data with the boundary fetch chooses.
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers.set('Content-Type', 'application/json');
  const response = await fetch(new URL(`/api/v1/chat${path}`, window.location.origin), {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : isForm
          ? (options.body as FormData)
          : JSON.stringify(options.body),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: Record<string, unknown> } | null;
    const error = body?.error ?? {};
    throw new ApiError(
      response.status,
      typeof error.code === 'string' ? error.code : 'INTERNAL_ERROR',
      typeof error.message === 'string' ? error.message : 'The chat could not be reached',
      (error.details as Record<string, unknown> | null) ?? null,
    );
  }
  return response;
}

async function visitorRequest<T>(
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; bearer?: string; body?: unknown } = {},
): Promise<T> {
  const response = await visitorFetch(method, path, options);
  return (await response.json().catch(() => null)) as T;
}

/** A message with a file: multipart/form-data with `file` and the optional text as `body`. */
function attachmentForm(file: File, body: string): FormData {
  const form = new FormData();
  if (body.trim()) form.append('body', body);
  form.append('file', file, file.name);
  return form;
}

export const liveChatApi = {
  status: () => visitorRequest<{ staff_online: boolean }>('GET', '/status'),
  open: (input: { email: string; body: string }, bearer: string | undefined) =>
    visitorRequest<OpenedChatConversation>('POST', '/conversations', { body: input, bearer }),
  get: (token: string) => visitorRequest<ChatConversation>('GET', '/conversation', { token }),
  write: (token: string, body: string) =>
    visitorRequest<ChatConversation>('POST', '/conversation/messages', { token, body: { body } }),
  attach: (token: string, file: File, body: string) =>
    visitorRequest<ChatConversation>('POST', '/conversation/attachments', {
      token,
      body: attachmentForm(file, body),
    }),
  /** A file of the conversation, decrypted by the server; the token header rules out a plain link. */
  download: async (token: string, attachmentId: string) =>
    (
      await visitorFetch('GET', `/conversation/attachments/${encodeURIComponent(attachmentId)}`, { token })
    ).blob(),
};

export const staffChatApi = {
  list: (api: ApiClient, status: 'open' | 'closed') =>
    api.get<{ data: StaffChatSummary[] }>('/staff/chat/conversations', { query: { status } }),
  get: (api: ApiClient, id: string) => api.get<StaffChatConversation>(`/staff/chat/conversations/${id}`),
  assign: (api: ApiClient, id: string) =>
    api.post<StaffChatConversation>(`/staff/chat/conversations/${id}/assign`),
  reply: (api: ApiClient, id: string, body: string) =>
    api.post<StaffChatConversation>(`/staff/chat/conversations/${id}/messages`, { body: { body } }),
  attach: (api: ApiClient, id: string, file: File, body: string) =>
    api.post<StaffChatConversation>(`/staff/chat/conversations/${id}/attachments`, {
      body: attachmentForm(file, body),
    }),
  download: (api: ApiClient, id: string, attachmentId: string) =>
    api.get<Blob>(`/staff/chat/conversations/${id}/attachments/${encodeURIComponent(attachmentId)}`, {
      as: 'blob',
    }),
  close: (api: ApiClient, id: string) =>
    api.post<StaffChatConversation>(`/staff/chat/conversations/${id}/close`),
  cannedReplies: (api: ApiClient) => api.get<{ data: CannedReply[] }>('/staff/chat/canned-replies'),
  addCannedReply: (api: ApiClient, input: { title: string; body: string }) =>
    api.post<CannedReply>('/staff/chat/canned-replies', { body: input }),
  removeCannedReply: (api: ApiClient, id: string) => api.delete(`/staff/chat/canned-replies/${id}`),
};
