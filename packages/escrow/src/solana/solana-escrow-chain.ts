import type { ConfirmationPolicy, LegTerms } from '../chain-adapter.js';
import type { DepositOutput, EscrowChainAdapter, OpenedLeg } from '../escrow-chain-adapter.js';
import type { SettlementPlan } from '../settlement-plan.js';
import type { EscrowLeg } from '../types.js';
import type { SolanaPlatformKey } from './platform-solana-key.js';

export type SolanaNetworkName = 'localnet' | 'devnet' | 'mainnet-beta';

/** A token the platform trades on Solana: its mint and decimals (TransferChecked states them). */
export interface SolanaMint {
  address: string;
  decimals: number;
}

export interface SolanaEscrowChainOptions {
  /** A Solana JSON-RPC endpoint (the local devnet, or a cluster's). */
  rpcUrl: string;
  /**
   * The RPC's WebSocket endpoint: each new slot arrives there as a `slotSubscribe` notification
   * (`subscribeNewBlocks`). Without it the adapter offers no subscription.
   */
  wsUrl?: string;
  network: SolanaNetworkName;
  /** The wallet (system account) the 1 bp fee goes to: lamports on SOL legs, its token accounts otherwise. */
  feeAddress: string;
  confirmationPolicy: ConfirmationPolicy;
  /** The SPL tokens by symbol (USDC, USDT); SOL is the native coin and needs none. */
  mints: Record<string, SolanaMint>;
  /** The multisig signer per leg, the relayer and the leg accounts' keys; a KMS can implement it. */
  platformKey: SolanaPlatformKey;
  /** How long openLeg waits for its transaction to be confirmed; 30 s without it. */
  confirmTimeoutMs?: number;
}

/** What the API returns with a Solana leg so anyone can check its custody on-chain. */
export interface SolanaCustody extends Record<string, unknown> {
  multisig: string;
  token_account: string;
  nonce_account: string;
  mint: string;
  threshold: 2;
  public_keys: { buyer: string; seller: string; platform: string };
  /** Where a Solana Pay request points: the multisig for token legs (its ATA receives), the wSOL account for SOL. */
  solana_pay_recipient: string;
}

/**
 * A leg to pay out from. `approver` is the party whose key the payout's message names as the
 * second multisig signer: the leg's depositor unless given (a mediator's decision may be carried
 * out by either party; the engine then builds it for the one who cooperates).
 */
export type PayableSolanaLeg = EscrowLeg & { platformKeyIndex: number; approver?: 'buyer' | 'seller' };

/**
 * The Solana adapter. Every escrow transaction is paid by the platform's relayer, which also pays
 * the rent of the leg's accounts and gets the token account's back when the leg closes.
 */
export interface SolanaEscrowChain extends EscrowChainAdapter {
  readonly chain: 'SOL';
  readonly network: SolanaNetworkName;
  readonly feeAddress: string;
  /** The relayer's address (it needs SOL for fees and rent). */
  relayerAddress(): Promise<string>;
  openLeg(terms: LegTerms): Promise<OpenedLeg & { custody: SolanaCustody }>;
  buildPayout(
    leg: PayableSolanaLeg,
    plan: SettlementPlan,
    deposits?: readonly DepositOutput[],
  ): ReturnType<EscrowChainAdapter['buildPayout']>;
}
