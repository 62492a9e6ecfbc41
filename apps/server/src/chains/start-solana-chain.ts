import { join } from 'node:path';
import { type SolanaDevnet, startSolanaDevnet } from '@covenant/devnets';
import type { SolanaConfig } from '../config.js';
import type { ChainToken, SolanaChainInfo } from './chain-registry.js';

export interface SolanaChain {
  info: SolanaChainInfo;
  stop(): Promise<void>;
}

/**
 * Solana: the embedded local devnet (LiteSVM behind the Solana JSON-RPC, state kept in
 * DATA_DIR/solana, a slot every SOL_DEVNET_SLOT_INTERVAL_MS, test USDC and USDT mints and a faucet
 * for `POST /dev/fund`) unless SOL_RPC_URL names a cluster's RPC. Either way the adapter speaks the
 * Solana JSON-RPC to it.
 */
export async function startSolanaChain(options: {
  dataDir: string;
  solana: SolanaConfig;
}): Promise<SolanaChain> {
  const { solana } = options;
  if (solana.mode === 'node') {
    return {
      info: {
        ...commonEntry(solana, solana.mints),
        explorerUrl: solana.network === 'mainnet-beta' ? 'https://explorer.solana.com' : null,
        rpcUrl: solana.rpcUrl,
        wsUrl: solana.wsUrl,
        devnet: false,
        solana: { network: solana.network },
      },
      stop: async () => {},
    };
  }
  const devnet = await startSolanaDevnet({
    dataDir: join(options.dataDir, 'solana'),
    slotIntervalMs: solana.slotIntervalMs,
  });
  return { info: localnetChainInfo(devnet, solana), stop: devnet.stop };
}

/** The registry entry of a running local devnet; the server and the escrow tests share it. */
export function localnetChainInfo(
  devnet: SolanaDevnet,
  settings: Pick<SolanaConfig, 'confirmations' | 'feeAddress'>,
): SolanaChainInfo {
  return {
    ...commonEntry(settings, devnet.mints),
    explorerUrl: null,
    rpcUrl: devnet.rpcUrl,
    wsUrl: devnet.wsUrl,
    devnet: true,
    solana: { network: 'localnet', faucet: devnet.faucet },
  };
}

function commonEntry(
  settings: Pick<SolanaConfig, 'confirmations' | 'feeAddress'>,
  mints: { USDC: string; USDT: string | undefined },
) {
  const tokens: ChainToken[] = [
    { symbol: 'SOL', decimals: 9, address: null },
    { symbol: 'USDC', decimals: 6, address: mints.USDC },
    ...(mints.USDT ? [{ symbol: 'USDT', decimals: 6, address: mints.USDT }] : []),
  ];
  return {
    chain: 'SOL' as const,
    tokens,
    confirmations: settings.confirmations,
    // Unset: a wallet of the platform's Solana seed, known once its key is (escrow-chains.ts fills it in).
    feeAddress: settings.feeAddress ?? '',
  };
}
