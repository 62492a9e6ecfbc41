import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** A signer as `POST /wallets/connect` answers it and `GET /wallets/balance` lists it. */
export type ConnectedSigner = { chain: string; address: string };

/**
 * `POST /api/v1/wallets/connect {chain: "BTC", public_key}`: registers the seed's Bitcoin escrow key
 * (compressed, hex) as the caller's Bitcoin signer. Bitcoin escrows are 2-of-3 multisigs over keys,
 * so the key itself is registered, not an address.
 */
export function connectBitcoinKey(api: ApiClient, publicKey: string): Promise<ConnectedSigner> {
  return api.post<ConnectedSigner>('/wallets/connect', {
    body: { chain: 'BTC', public_key: publicKey },
    idempotencyKey: crypto.randomUUID(),
  });
}

/** `GET /api/v1/wallets/balance`, read here only for which signer is registered on each chain. */
export async function getWalletSigners(api: ApiClient): Promise<ConnectedSigner[]> {
  const { data } = await api.get<{ data: ConnectedSigner[] }>('/wallets/balance');
  return data.map(({ chain, address }) => ({ chain, address }));
}

export function getWalletSignersQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['wallets', userId, 'signers'],
    queryFn: () => getWalletSigners(api),
    enabled: Boolean(userId),
  });
}

export function useWalletSigners(enabled: boolean) {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery({ ...getWalletSignersQueryOptions(api, user?.id), enabled: enabled && Boolean(user?.id) });
}

export function useConnectBitcoinKey() {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (publicKey: string) => connectBitcoinKey(api, publicKey),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: getWalletSignersQueryOptions(api, user?.id).queryKey }),
  });
}
