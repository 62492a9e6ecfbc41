import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { type ConnectedSigner, getWalletSignersQueryOptions } from './connect-bitcoin-key.js';

/**
 * `POST /api/v1/wallets/connect {chain: "SOL", address}`: registers the seed's Solana escrow key
 * (its base58 ed25519 public key, which is its address) as the caller's Solana signer, one of the
 * three signers of each Solana leg's token multisig.
 */
export function connectSolanaKey(api: ApiClient, address: string): Promise<ConnectedSigner> {
  return api.post<ConnectedSigner>('/wallets/connect', {
    body: { chain: 'SOL', address },
    idempotencyKey: crypto.randomUUID(),
  });
}

export function useConnectSolanaKey() {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (address: string) => connectSolanaKey(api, address),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: getWalletSignersQueryOptions(api, user?.id).queryKey }),
  });
}
