import type { EscrowKeyRecord } from '@covenant/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, ApiError, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** What `PUT /wallets/escrow-key` takes: the browser-encrypted seed and its Ethereum address. */
export type EscrowKeyRequest = Omit<EscrowKeyRecord, 'created_at' | 'updated_at'>;

/** `GET /api/v1/wallets/escrow-key`: the caller's encrypted seed, or null before they created one. */
export async function getEscrowKey(api: ApiClient): Promise<EscrowKeyRecord | null> {
  try {
    return await api.get<EscrowKeyRecord>('/wallets/escrow-key');
  } catch (error) {
    // 404 is the ordinary answer for a user without a key, not a failure to show or retry.
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function getEscrowKeyQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['wallets', userId, 'escrow-key'],
    queryFn: () => getEscrowKey(api),
    enabled: Boolean(userId),
  });
}

export function useEscrowKey() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getEscrowKeyQueryOptions(api, user?.id));
}

/** `PUT /api/v1/wallets/escrow-key`: stores (or replaces) the key; a PUT is safe to retry as it is. */
export function putEscrowKey(api: ApiClient, key: EscrowKeyRequest): Promise<EscrowKeyRecord> {
  return api.put<EscrowKeyRecord>('/wallets/escrow-key', { body: key });
}

export function usePutEscrowKey() {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: EscrowKeyRequest) => putEscrowKey(api, key),
    // The answer is the stored record: no second request to read it back.
    onSuccess: (saved) => queryClient.setQueryData(getEscrowKeyQueryOptions(api, user?.id).queryKey, saved),
  });
}
