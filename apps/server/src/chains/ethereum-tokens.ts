import { type Address, erc20Abi, type PublicClient } from 'viem';
import type { ChainToken } from './chain-registry.js';

/** ETH itself, then each ERC-20 with the decimals its contract reports. */
export async function ethereumTokens(
  client: PublicClient,
  tokens: { symbol: string; address: Address }[],
): Promise<(ChainToken & { address: Address | null })[]> {
  const erc20s = await Promise.all(
    tokens.map(async (token) => ({
      symbol: token.symbol,
      decimals: await client.readContract({
        address: token.address,
        abi: erc20Abi,
        functionName: 'decimals',
      }),
      address: token.address,
    })),
  );
  return [{ symbol: 'ETH', decimals: 18, address: null }, ...erc20s];
}
