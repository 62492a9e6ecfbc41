import type { Config } from '../config.js';
import type { ChainRegistry } from './chain-registry.js';
import { connectEthereumNode } from './connect-ethereum-node.js';
import { startBitcoinChain } from './start-bitcoin-chain.js';
import { startEthereumDevnet } from './start-ethereum-devnet.js';
import { startSolanaChain } from './start-solana-chain.js';

/**
 * Builds the registry from the configuration. Ethereum is the embedded devnet (state kept in
 * DATA_DIR/anvil) unless ETH_RPC_URL names a node; Bitcoin the embedded regtest node (DATA_DIR/bitcoin)
 * unless BTC_RPC_URL does; Solana the embedded local devnet (DATA_DIR/solana) unless SOL_RPC_URL
 * names a cluster's RPC. A chain that fails to start stops the ones already started.
 */
export async function startChainRegistry(
  config: Pick<Config, 'dataDir' | 'ethereum' | 'bitcoin' | 'solana'>,
): Promise<ChainRegistry> {
  const ethereum =
    config.ethereum.mode === 'devnet'
      ? await startEthereumDevnet({ dataDir: config.dataDir, confirmations: config.ethereum.confirmations })
      : { info: await connectEthereumNode(config.ethereum), stop: async () => {} };
  let bitcoin: Awaited<ReturnType<typeof startBitcoinChain>>;
  try {
    bitcoin = await startBitcoinChain({ dataDir: config.dataDir, bitcoin: config.bitcoin });
  } catch (error) {
    await ethereum.stop();
    throw error;
  }
  let solana: Awaited<ReturnType<typeof startSolanaChain>>;
  try {
    solana = await startSolanaChain({ dataDir: config.dataDir, solana: config.solana });
  } catch (error) {
    await Promise.allSettled([ethereum.stop(), bitcoin.stop()]);
    throw error;
  }
  return {
    chains: [ethereum.info, bitcoin.info, solana.info],
    stop: async () => {
      await Promise.allSettled([ethereum.stop(), bitcoin.stop(), solana.stop()]);
    },
  };
}
