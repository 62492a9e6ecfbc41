import type { ForeignReturn } from '@covenant/contracts';
import type { TypedDataJson } from '@covenant/domain';
import type { Address, Hex } from 'viem';
import type { ConfirmationPolicy, LegTerms, UnsignedPayout } from '../chain-adapter.js';
import type {
  DepositOutput,
  EscrowChainAdapter,
  ForeignAssetReturnRequest,
} from '../escrow-chain-adapter.js';
import type { SettlementPlan } from '../settlement-plan.js';
import type { EscrowLeg } from '../types.js';

/**
 * The platform's Ethereum key as the adapter needs it: its address (the third signer of every leg)
 * and an EIP-712 signature over a payout's typed data. The server's `PlatformSigner` (key file, or
 * a KMS/HSM) is one.
 */
export interface EthereumPlatformSigner {
  readonly ethereumAddress: string;
  signEthereumTypedData(typedData: TypedDataJson): Promise<string>;
  /** An EIP-712 signature returning a foreign asset from the escrow at `escrow` (`ForeignReturn`). */
  signEthereumForeignReturn(chainId: number, escrow: Address, foreignReturn: ForeignReturn): Promise<string>;
}

/**
 * The Ethereum adapter's construction options: the node, the deployed factory, the fee address, the
 * tokens the platform trades (ETH has address null), the relayer key that pays gas for the
 * platform's transactions (deploying escrows, submitting payouts) and the platform's signer, which
 * co-signs payouts. The relayer signs transactions only; it is none of the escrow's three signers.
 */
export interface EthereumEscrowChainOptions {
  rpcUrl: string;
  chainId: number;
  escrowFactory: Address;
  feeAddress: Address;
  tokens: { symbol: string; address: Address | null }[];
  confirmationPolicy: ConfirmationPolicy;
  relayerKey: Hex;
  platformSigner: EthereumPlatformSigner;
  /** Blocks per getLogs call; a scan of a longer range is split. Default 2000. */
  maxBlocksPerScan?: number;
  /**
   * The node's WebSocket endpoint: new blocks arrive there as `eth_subscribe` `newHeads`
   * notifications (`subscribeNewBlocks`). Without it the adapter offers no subscription.
   */
  wsUrl?: string;
}

/** A transaction signed by the relayer but not necessarily sent: stored before broadcast, re-sent as is after a crash. */
export interface SignedTransaction {
  rawTransaction: Hex;
  /** Its hash, known before broadcast. */
  txRef: Hex;
}

export type { OutgoingMovement } from '../escrow-chain-adapter.js';

/**
 * The Ethereum chain: the engine's EscrowChainAdapter — `openLeg` deploys the leg's escrow,
 * `verifyApproval` recovers the EIP-712 signer, `cosign` signs with the platform's key, `bumpFee`
 * replaces a stuck transaction on the same nonce — plus what only an account chain with escrow
 * contracts has: refunding after the contract's deadline, returning a wrong token, sweeping a late
 * deposit, all without signatures.
 */
export interface EthereumEscrowChain extends EscrowChainAdapter {
  readonly chainId: number;
  /** The relayer's address (it needs ETH for gas). */
  readonly relayerAddress: Address;

  /**
   * Deploys the leg's escrow through the factory unless code is already at its address; waits for
   * the receipt. Idempotent. Returns the deposit address (EIP-55) and the deployment's tx hash, or
   * null when it was already deployed.
   */
  deployEscrow(terms: LegTerms): Promise<{ depositAddress: string; txRef: string | null }>;

  /**
   * The EIP-712 payout of the plan, for the escrow's current nonce (read from the chain: travel
   * payouts consume one each); Ethereum needs no per-leg key index nor deposit outputs.
   */
  buildPayout(
    leg: EscrowLeg,
    plan: SettlementPlan,
    deposits?: readonly DepositOutput[],
  ): Promise<UnsignedPayout>;

  /**
   * The relayer's signed `executePayout` transaction for the payout with these signatures (2 of 3),
   * not yet sent. Estimates gas, so it throws when the call would revert (with the contract's error
   * name in the message).
   */
  signPayoutTransaction(
    payout: UnsignedPayout,
    signatures: readonly { signer: 'buyer' | 'seller' | 'platform'; signature: string }[],
  ): Promise<SignedTransaction>;

  /** The relayer's signed factory call deploying the leg's escrow, not yet sent; null when it is already deployed. */
  signDeployment(terms: LegTerms): Promise<{ depositAddress: string; transaction: SignedTransaction | null }>;

  isDeployed(depositAddress: string): Promise<boolean>;

  /** A relayer transaction on the same nonce, each fee field +12.5% (or the node's ask). */
  bumpRelayerTransaction(sent: { rawTransaction: string; txRef: string }): Promise<SignedTransaction>;

  /** The same transaction on the same nonce, each fee field +12.5% (or the node's ask): it replaces the sent one. */
  bumpFee(
    payout: UnsignedPayout,
    sent: { rawTransaction: string; txRef: string },
    attempt: number,
  ): Promise<{ replaces: true; transaction: SignedTransaction }>;

  /** The address a signature over the payout's typed data recovers to (EIP-55), or null when it does not parse. */
  recoverSigner(payout: UnsignedPayout, signature: string): Promise<string | null>;

  /** The relayer's signed `refundAfterDeadline` on the leg's escrow, not yet sent. */
  signRefundAfterDeadline(depositAddress: string): Promise<SignedTransaction>;

  /** The relayer's signed `returnForeignAsset`, with the platform's signature, not yet sent. */
  signReturnForeignAsset(
    depositAddress: string,
    request: ForeignAssetReturnRequest,
  ): Promise<SignedTransaction>;

  /** The relayer's signed `sweep()`, not yet sent. */
  signSweep(depositAddress: string): Promise<SignedTransaction>;
}
