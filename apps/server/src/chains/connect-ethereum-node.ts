import { covenantEscrowAbi, covenantEscrowFactoryAbi } from '@covenant/escrow/ethereum';
import { type Address, createPublicClient, http, keccak256, type PublicClient, toHex } from 'viem';
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
 * A real Ethereum node: checks the configured factory is deployed there and deploys escrows of this
 * version of the contract, and reads the chain id and the tokens' decimals, so a wrong setting stops
 * the start instead of a deposit.
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
  await checkEscrowVersion(client, config.escrowFactory);
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

/** The signed return of a foreign asset this server's engine sends (ADR 036). */
const foreignReturnTypeHash = keccak256(
  toHex('ForeignReturn(bytes32 arrival,address asset,address to,uint256 amount)'),
);

/**
 * Refuses a factory whose escrows are not this version's: the engine signs and calls what this
 * version's contract takes (an older escrow returned foreign tokens without a signature, to the
 * depositor). The factory's implementation must answer `FOREIGN_RETURN_TYPEHASH` with the type
 * the engine signs.
 */
export async function checkEscrowVersion(
  client: PublicClient,
  factory: Address,
  advice = 'deploy the factory of this release (contracts/README.md)',
): Promise<void> {
  const typeHash = await client
    .readContract({ address: factory, abi: covenantEscrowFactoryAbi, functionName: 'implementation' })
    .then((implementation) =>
      client.readContract({
        address: implementation,
        abi: covenantEscrowAbi,
        functionName: 'FOREIGN_RETURN_TYPEHASH',
      }),
    )
    .catch(() => null);
  if (typeHash !== foreignReturnTypeHash) {
    throw new Error(`ETH_ESCROW_FACTORY ${factory} does not deploy this version's CovenantEscrow: ${advice}`);
  }
}
