import { createPublicClient, http } from 'viem';
import type { EthereumConfig } from '../config.js';
import type { EthereumChainInfo } from './chain-registry.js';
import { ethereumTokens } from './ethereum-tokens.js';

/** Well-known explorers by chain id; other chains have none. */
const explorers: Record<number, string> = {
  1: 'https://etherscan.io',
  11155111: 'https://sepolia.etherscan.io',
  17000: 'https://holesky.etherscan.io',
};

/**
 * A real Ethereum node: checks the configured factory is deployed there and reads the chain id
 * and the tokens' decimals, so a wrong setting stops the start instead of a deposit.
 */
export async function connectEthereumNode(
  config: Extract<EthereumConfig, { mode: 'node' }>,
): Promise<EthereumChainInfo> {
  const client = createPublicClient({ transport: http(config.rpcUrl, { retryCount: 2 }) });
  const [chainId, factoryCode] = await Promise.all([
    client.getChainId(),
    client.getCode({ address: config.escrowFactory }),
  ]);
  if (!factoryCode || factoryCode === '0x') {
    throw new Error(`ETH_ESCROW_FACTORY ${config.escrowFactory} has no code on the node at ETH_RPC_URL`);
  }
  return {
    chain: 'ETH',
    chainId,
    tokens: await ethereumTokens(client, config.tokens),
    confirmations: config.confirmations,
    escrowFactory: config.escrowFactory,
    feeAddress: config.feeAddress,
    explorerUrl: explorers[chainId] ?? null,
    rpcUrl: config.rpcUrl,
    wsUrl: config.wsUrl,
    devnet: false,
  };
}
