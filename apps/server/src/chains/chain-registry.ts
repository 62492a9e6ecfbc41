import type { EscrowChain } from '@covenant/domain';
import type { Address } from 'viem';
import type { Confirmations } from '../config.js';

/** A token the platform trades on a chain; the chain's own coin has no contract address. */
export interface ChainToken {
  symbol: string;
  decimals: number;
  address: Address | null;
}

/**
 * What a client needs to know about one chain the platform runs escrows on. `chainId` and
 * `escrowFactory` are Ethereum's (the EIP-155 chain id approvals are bound to, the factory whose
 * CREATE2 addresses are the deposit addresses); other chains have neither.
 */
export interface ChainInfo {
  chain: EscrowChain;
  chainId?: number;
  tokens: ChainToken[];
  confirmations: Confirmations;
  escrowFactory?: Address;
  /** Receives the 1 bp fee of each leg paid out on this chain. */
  feeAddress: string;
  /** A block explorer's base URL; none for the local devnet. */
  explorerUrl: string | null;
  /** The node's RPC URL, shown only for the local devnet (a real node's URL may carry a key). */
  rpcUrl: string;
  devnet: boolean;
}

/** Ethereum's entry: its chain id and escrow factory are known. */
export type EthereumChainInfo = ChainInfo & {
  chain: 'ETH';
  chainId: number;
  escrowFactory: Address;
  feeAddress: Address;
};

/** The chains the server runs escrows on, built once at start; `stop()` ends any local devnet. */
export interface ChainRegistry {
  chains: ChainInfo[];
  stop(): Promise<void>;
}

/** No chains: for tests that do not touch the escrow. */
export const emptyChainRegistry: ChainRegistry = { chains: [], stop: async () => {} };
