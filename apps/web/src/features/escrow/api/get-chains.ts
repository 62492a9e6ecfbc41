import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/**
 * What the panel reads of `GET /api/v1/chains` (the server's `chainSchema`; the domain has no shared
 * type for it yet): the explorer for transaction links, and `rpc_url`, present only on the devnet.
 * The escrow key reads the Bitcoin entry's `network` (optional: the server may not name it yet) or
 * else its `fee_address` to know which Bitcoin key to register.
 */
export type ChainView = {
  chain: string;
  chain_id: number;
  fee_address: string;
  network?: string;
  explorer_url: string | null;
  rpc_url?: string;
  /** Solana: the tokens escrowed there, with their mints (null for SOL itself). */
  tokens?: { symbol: string; decimals: number; address: string | null }[];
};

/**
 * The mint the server lists for `symbol` on `chain` (null for SOL itself), or undefined when it
 * lists no tokens there: what a Solana leg's custody is checked against.
 */
export function listedMintOf(
  chains: readonly ChainView[],
  chain: string,
  symbol: string,
): string | null | undefined {
  return chains.find((entry) => entry.chain === chain)?.tokens?.find((token) => token.symbol === symbol)
    ?.address;
}

/** The explorer page of transaction `hash` on `chain`, or null when the server names no explorer for it. */
export function transactionUrlOf(chains: readonly ChainView[], chain: string, hash: string): string | null {
  const explorer = chains.find((entry) => entry.chain === chain)?.explorer_url;
  return explorer ? `${explorer.replace(/\/$/, '')}/tx/${hash}` : null;
}

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

/**
 * The chains of `all` that `GET /chains` lists, in `all`'s order: a form offers only these, since a
 * deal leg elsewhere is refused (its escrow is not built). Until the list has loaded (or when it
 * could not be read) only `current` is offered, and the server decides.
 */
export function listedChainsOf<T extends string>(
  all: readonly T[],
  chains: ChainView[] | undefined,
  current: T,
): T[] {
  if (!chains) return [current];
  const listed = new Set(chains.map((chain) => chain.chain));
  return all.filter((chain) => listed.has(chain));
}
