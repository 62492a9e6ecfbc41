import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEVNET_FEE_ADDRESS, deployDevnet, devnetPrivateKey, startAnvil } from '@covenant/devnets';
import { type Address, createPublicClient, getContractAddress, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Confirmations } from '../config.js';
import type { EthereumChainInfo } from './chain-registry.js';
import { checkEscrowVersion } from './connect-ethereum-node.js';
import { ethereumTokens } from './ethereum-tokens.js';
import { webSocketUrlOf } from './web-socket-url.js';

export interface EthereumDevnet {
  info: EthereumChainInfo;
  stop(): Promise<void>;
}

/**
 * The embedded Ethereum devnet: anvil with its chain kept in DATA_DIR/anvil, and the escrow factory
 * and test tokens deployed once. The deployer's nonces make the addresses fixed, so a devnet
 * restarted from its saved state finds its contracts where it left them and deploys nothing.
 */
export async function startEthereumDevnet(options: {
  dataDir: string;
  confirmations: Confirmations;
}): Promise<EthereumDevnet> {
  const stateDir = join(options.dataDir, 'anvil');
  await mkdir(stateDir, { recursive: true });
  const anvil = await startAnvil({ stateFile: join(stateDir, 'state.json') });
  try {
    const client = createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }), cacheTime: 0 });
    const found = await findDevnetContracts(client);
    // A chain saved by an older release holds escrows of an older contract, which this engine cannot
    // drive (ADR 036): say so rather than fail at the first wrong-token deposit.
    if (found) {
      await checkEscrowVersion(
        client,
        found.escrowFactory,
        `the devnet saved in ${stateDir} is an older release's; remove DATA_DIR to start afresh`,
      );
    }
    const contracts = found ?? devnetContracts(await deployDevnet({ rpcUrl: anvil.rpcUrl }));
    return {
      info: {
        chain: 'ETH',
        chainId: anvil.chainId,
        tokens: await ethereumTokens(client, contracts.tokens),
        confirmations: options.confirmations,
        escrowFactory: contracts.escrowFactory,
        feeAddress: contracts.feeAddress,
        explorerUrl: null,
        rpcUrl: anvil.rpcUrl,
        // anvil serves eth_subscribe over WebSocket on its HTTP port.
        wsUrl: webSocketUrlOf(anvil.rpcUrl, 'same-port'),
        devnet: true,
      },
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

interface DevnetContracts {
  escrowFactory: Address;
  feeAddress: Address;
  tokens: { symbol: string; address: Address }[];
}

/** deployDevnet's order from the devnet's first account: the factory (nonce 0), then these tokens. */
const tokensInDeploymentOrder = ['USDC', 'USDT', 'WETH', 'WBTC'];

/** The contracts a previous start deployed, when the saved chain holds code at each of their addresses. */
async function findDevnetContracts(client: PublicClient): Promise<DevnetContracts | undefined> {
  const deployer = privateKeyToAccount(devnetPrivateKey(0)).address;
  const deployedAt = (nonce: number) => getContractAddress({ from: deployer, nonce: BigInt(nonce) });
  const escrowFactory = deployedAt(0);
  const tokens = tokensInDeploymentOrder.map((symbol, index) => ({ symbol, address: deployedAt(index + 1) }));
  const codes = await Promise.all(
    [escrowFactory, ...tokens.map((token) => token.address)].map((address) => client.getCode({ address })),
  );
  if (codes.some((code) => !code || code === '0x')) return undefined;
  return { escrowFactory, feeAddress: DEVNET_FEE_ADDRESS, tokens };
}

function devnetContracts(devnet: Awaited<ReturnType<typeof deployDevnet>>): DevnetContracts {
  return {
    escrowFactory: devnet.escrowFactory,
    feeAddress: devnet.feeAddress,
    tokens: Object.values(devnet.tokens).map((token) => ({ symbol: token.symbol, address: token.address })),
  };
}
