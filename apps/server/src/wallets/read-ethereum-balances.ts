import { type Address, createPublicClient, erc20Abi, http } from 'viem';
import type { ChainInfo } from '../chains/chain-registry.js';

export interface TokenBalance {
  symbol: string;
  decimals: number;
  amount: bigint;
}

/** How long a balance read may take before the node is treated as unavailable. */
const balanceTimeoutMs = 3_000;

/**
 * The balances of `address` in ETH and in each ERC-20 the chain lists, read in one JSON-RPC batch;
 * null when the node does not answer within the timeout or fails, so a dead node never hangs the
 * request.
 */
export async function readEthereumBalances(
  chain: ChainInfo,
  address: Address,
): Promise<TokenBalance[] | null> {
  const client = createPublicClient({
    transport: http(chain.rpcUrl, { batch: true, retryCount: 0, timeout: balanceTimeoutMs }),
    cacheTime: 0,
  });
  try {
    return await Promise.all(
      chain.tokens.map(async (token) => ({
        symbol: token.symbol,
        decimals: token.decimals,
        amount:
          token.address === null
            ? await client.getBalance({ address })
            : await client.readContract({
                address: token.address as Address,
                abi: erc20Abi,
                functionName: 'balanceOf',
                args: [address],
              }),
      })),
    );
  } catch {
    return null;
  }
}
