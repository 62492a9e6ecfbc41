import type { Config } from '../config.js';
import type { ChainRegistry } from './chain-registry.js';
import { connectEthereumNode } from './connect-ethereum-node.js';
import { startEthereumDevnet } from './start-ethereum-devnet.js';

/**
 * Builds the registry from the configuration. Ethereum is the embedded devnet (state kept in
 * DATA_DIR/anvil) unless ETH_RPC_URL names a node. Bitcoin and Solana are not built yet.
 */
export async function startChainRegistry(
  config: Pick<Config, 'dataDir' | 'ethereum'>,
): Promise<ChainRegistry> {
  const ethereum =
    config.ethereum.mode === 'devnet'
      ? await startEthereumDevnet({ dataDir: config.dataDir, confirmations: config.ethereum.confirmations })
      : { info: await connectEthereumNode(config.ethereum), stop: async () => {} };
  return { chains: [ethereum.info], stop: ethereum.stop };
}
