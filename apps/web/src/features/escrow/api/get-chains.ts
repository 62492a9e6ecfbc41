import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/**
 * What the panel reads of `GET /api/v1/chains` (the server's `chainSchema`; the domain has no shared
 * type for it yet): the explorer for transaction links, and `rpc_url`, present only on the devnet.
 */
export type ChainView = {
  chain: string;
  chain_id: number;
  explorer_url: string | null;
  rpc_url?: string;
};

/** `GET /api/v1/chains` (public): the chains escrows run on. */
export async function getChains(api: ApiClient): Promise<ChainView[]> {
  const { data } = await api.get<{ data: ChainView[] }>('/chains');
  return data;
}

export function getChainsQueryOptions(api: ApiClient) {
  // The list only changes with a server deploy.
  return queryOptions({
    queryKey: ['chains'],
    queryFn: () => getChains(api),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useChains(enabled: boolean) {
  const api = useApiClient();
  return useQuery({ ...getChainsQueryOptions(api), enabled });
}
