import { contractArtifact, escrowImplementationAddress } from '@covenant/contracts';
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { devnetPrivateKey } from './start-anvil.js';

/** The devnet's platform fee address: the mnemonic's account 10, unfunded so its balances start at 0. */
export const DEVNET_FEE_ADDRESS: Address = privateKeyToAccount(devnetPrivateKey(10)).address;

export type DevnetTokenSymbol = 'USDC' | 'USDT' | 'WETH' | 'WBTC';

export interface DevnetToken {
  symbol: DevnetTokenSymbol;
  decimals: number;
  address: Address;
}

export interface Devnet {
  escrowFactory: Address;
  escrowImplementation: Address;
  feeAddress: Address;
  tokens: Record<DevnetTokenSymbol, DevnetToken>;
}

const tokenSpecs = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6 },
  { symbol: 'USDT', name: 'Tether USD', decimals: 6 },
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8 },
] as const;

/**
 * Deploys the escrow factory (which deploys the escrow implementation) and the test tokens USDC,
 * USDT (whose transfers return nothing, like mainnet USDT), WETH and WBTC with their real decimals,
 * from `deployerKey` (by default the devnet's first account). On a fresh anvil the addresses are
 * the same on every start.
 */
export async function deployDevnet(options: { rpcUrl: string; deployerKey?: Hex }): Promise<Devnet> {
  const account = privateKeyToAccount(options.deployerKey ?? devnetPrivateKey(0));
  const transport = http(options.rpcUrl, { retryCount: 0 });
  const chain = { ...foundry, id: await createPublicClient({ transport }).getChainId() };
  const publicClient = createPublicClient({ chain, transport, cacheTime: 0 });
  const walletClient = createWalletClient({ account, chain, transport, cacheTime: 0 });

  const factory = contractArtifact('CovenantEscrowFactory');
  const escrowFactory = await deploy(publicClient, walletClient, factory.abi, factory.bytecode, []);
  const tokens = {} as Record<DevnetTokenSymbol, DevnetToken>;
  for (const spec of tokenSpecs) {
    const address =
      spec.symbol === 'USDT'
        ? await deploy(publicClient, walletClient, ...tetherArtifact())
        : await deploy(
            publicClient,
            walletClient,
            ...testTokenArtifact(spec.name, spec.symbol, spec.decimals),
          );
    tokens[spec.symbol] = { symbol: spec.symbol, decimals: spec.decimals, address };
  }
  return {
    escrowFactory,
    escrowImplementation: escrowImplementationAddress(escrowFactory),
    feeAddress: DEVNET_FEE_ADDRESS,
    tokens,
  };
}

function tetherArtifact(): [Abi, Hex, readonly unknown[]] {
  const { abi, bytecode } = contractArtifact('TestTetherToken');
  return [abi, bytecode, []];
}

function testTokenArtifact(name: string, symbol: string, decimals: number): [Abi, Hex, readonly unknown[]] {
  const { abi, bytecode } = contractArtifact('TestToken');
  return [abi, bytecode, [name, symbol, decimals]];
}

async function deploy(
  publicClient: PublicClient,
  walletClient: WalletClient,
  abi: Abi,
  bytecode: Hex,
  args: readonly unknown[],
): Promise<Address> {
  const account = walletClient.account;
  if (!account) throw new Error('the wallet client has no account');
  const hash = await walletClient.deployContract({ abi, bytecode, args, account, chain: walletClient.chain });
  // anvil answers with the hash before the block is mined.
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployment failed: ${hash}`);
  return getAddress(receipt.contractAddress);
}
