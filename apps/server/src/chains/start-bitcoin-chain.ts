import { join } from 'node:path';
import { type BitcoinRegtest, startBitcoinRegtest } from '@covenant/devnets';
import type { BitcoinConfig } from '../config.js';
import type { BitcoinChainInfo } from './chain-registry.js';

export interface BitcoinChain {
  info: BitcoinChainInfo;
  stop(): Promise<void>;
}

/** Bitcoin's one coin: BTC in satoshis. */
const bitcoinTokens = [{ symbol: 'BTC', decimals: 8, address: null }];

/**
 * Bitcoin: the embedded regtest node (bcoin, chain kept in DATA_DIR/bitcoin, a block mined every
 * BTC_DEVNET_BLOCK_INTERVAL_MS, a dev wallet for `POST /dev/fund`) unless BTC_RPC_URL names a
 * Bitcoin Core node. Either way the adapter speaks Bitcoin Core's JSON-RPC to it.
 */
export async function startBitcoinChain(options: {
  dataDir: string;
  bitcoin: BitcoinConfig;
}): Promise<BitcoinChain> {
  const { bitcoin } = options;
  const common = commonEntry(bitcoin);
  if (bitcoin.mode === 'node') {
    return {
      info: {
        ...common,
        explorerUrl: bitcoin.network === 'mainnet' ? 'https://mempool.space' : null,
        rpcUrl: bitcoin.rpcUrl,
        devnet: false,
        bitcoin: {
          network: bitcoin.network,
          rpcUser: bitcoin.rpcUser,
          rpcPassword: bitcoin.rpcPassword,
          feeRateSatPerVbyte: bitcoin.feeRateSatPerVbyte,
        },
      },
      stop: async () => {},
    };
  }
  const regtest = await startBitcoinRegtest({
    dataDir: join(options.dataDir, 'bitcoin'),
    ...(bitcoin.blockIntervalMs > 0 ? { blockIntervalMs: bitcoin.blockIntervalMs } : {}),
  });
  return { info: regtestChainInfo(regtest, bitcoin), stop: regtest.stop };
}

/**
 * The registry entry of a running local regtest node: its RPC URL and credentials, its dev wallet
 * for `POST /dev/fund`. The server and the escrow tests (which run the node in memory) share it.
 */
export function regtestChainInfo(
  regtest: BitcoinRegtest,
  settings: Pick<BitcoinConfig, 'confirmations' | 'feeRateSatPerVbyte'>,
): BitcoinChainInfo {
  return {
    ...commonEntry(settings),
    explorerUrl: null,
    rpcUrl: regtest.rpcUrl,
    devnet: true,
    bitcoin: {
      network: 'regtest',
      rpcUser: regtest.rpcUser,
      rpcPassword: regtest.rpcPassword,
      feeRateSatPerVbyte: settings.feeRateSatPerVbyte,
      devWallet: { fund: regtest.fund },
    },
  };
}

function commonEntry(settings: Pick<BitcoinConfig, 'confirmations'>) {
  return {
    chain: 'BTC' as const,
    tokens: bitcoinTokens,
    confirmations: settings.confirmations,
    // The platform's fee wallet: known once the platform's key is (escrow-chains.ts fills it in).
    feeAddress: '',
  };
}
