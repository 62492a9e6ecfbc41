import type { ApiClient } from '@/lib/api-client.js';

/** An item's file, decrypted by the server; the Bearer header rules out a plain link. */
export function getTravelFile(api: ApiClient, itemId: string): Promise<Blob> {
  return api.get<Blob>(`/staff/travel/${encodeURIComponent(itemId)}/file`, { as: 'blob' });
}
