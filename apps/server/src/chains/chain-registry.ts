import type { BitcoinNetwork, EscrowChain } from '@covenant/domain';
import type { Address } from 'viem';
import type { Confirmations } from '../config.js';

/** A token the platform trades on a chain; the chain's own coin has no contract (or mint) address. */
export interface ChainToken {
  symbol: string;
  decimals: number;
  /** The ERC-20 contract (Ethereum, EIP-55) or the SPL mint (Solana, base58). */
  address: string | null;
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
  /**
   * The node's WebSocket endpoint, where the escrow engine subscribes to new blocks (Ethereum and
   * Solana, ADR 031); none: the chain's blocks are found by polling.
   */
  wsUrl?: string;
  devnet: boolean;
  /** Bitcoin's network, node credentials and fee-rate bounds; the local node's dev wallet. */
  bitcoin?: BitcoinChainSettings;
  /** Solana's cluster; the local devnet's faucet. */
  solana?: SolanaChainSettings;
}

/** What the Solana adapter needs beyond the common entry. */
export interface SolanaChainSettings {
  network: SolanaNetwork;
  /** The local devnet only: pays SOL (lamports) or a token (base units) from its faucet; the signature. */
  faucet?: {
    fundSol(to: string, lamports: bigint): Promise<string>;
    fundToken(to: string, mint: string, amount: bigint): Promise<string>;
  };
}

/** `localnet` is the embedded devnet. */
export type SolanaNetwork = 'localnet' | 'devnet' | 'mainnet-beta';

/** Solana's entry. Its fee address is the platform's, filled in when the escrow chains are built. */
export type SolanaChainInfo = ChainInfo & { chain: 'SOL'; solana: SolanaChainSettings };

/** What the Bitcoin adapter needs beyond the common entry. Credentials are never shown to clients. */
export interface BitcoinChainSettings {
  network: BitcoinNetwork;
  rpcUser: string | undefined;
  rpcPassword: string | undefined;
  feeRateSatPerVbyte: { min: number; max: number };
  /** The most deposit outputs one payout spends (tests lower it); the adapter's default without it. */
  maxPayoutInputs?: number;
  /** The local regtest node only: pays `sats` to an address from its dev wallet; the txid. */
  devWallet?: { fund(address: string, sats: bigint): Promise<string> };
}

/** Bitcoin's entry. Its fee address is the platform's fee wallet, filled in when the escrow chains are built. */
export type BitcoinChainInfo = ChainInfo & { chain: 'BTC'; bitcoin: BitcoinChainSettings };

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
