import type { Address, Hex } from 'viem';
import type {
  ChainAdapter,
  ConfirmationPolicy,
  LegTerms,
  PartySignature,
  UnsignedPayout,
} from '../chain-adapter.js';

/**
 * The Ethereum adapter's construction options: the node, the deployed factory, the fee address, the
 * tokens the platform trades (ETH has address null) and the relayer key that pays gas for the
 * platform's transactions (deploying escrows, submitting payouts). The relayer signs transactions
 * only; it is none of the escrow's three signers.
 */
export interface EthereumEscrowChainOptions {
  rpcUrl: string;
  chainId: number;
  escrowFactory: Address;
  feeAddress: Address;
  tokens: { symbol: string; address: Address | null }[];
  confirmationPolicy: ConfirmationPolicy;
  relayerKey: Hex;
  /** Blocks per getLogs call; a scan of a longer range is split. Default 2000. */
  maxBlocksPerScan?: number;
}

/** A transaction signed by the relayer but not necessarily sent: stored before broadcast, re-sent as is after a crash. */
export interface SignedTransaction {
  rawTransaction: Hex;
  /** Its hash, known before broadcast. */
  txRef: Hex;
}

/** A movement out of a leg's escrow, read from the logs of a settled transaction. */
export interface OutgoingMovement {
  /** `payout` to a recipient, `fee` to the fee address, `refund` to the depositor, `sweep` a late deposit returned. */
  kind: 'payout' | 'fee' | 'refund' | 'sweep';
  to: string;
  amount: bigint;
  /** The log index. */
  position: number;
  blockRef: string;
  height: bigint;
}

/**
 * The Ethereum chain: the engine's ChainAdapter plus what only an account chain with escrow
 * contracts needs — deploying a leg's escrow, signing the relayer's transactions ahead of
 * broadcast, refunding after the contract's deadline, returning a wrong token.
 */
export interface EthereumEscrowChain extends ChainAdapter {
  readonly chainId: number;
  /** The relayer's address (it needs ETH for gas). */
  readonly relayerAddress: Address;

  /**
   * Deploys the leg's escrow through the factory unless code is already at its address; waits for
   * the receipt. Idempotent. Returns the deposit address (EIP-55) and the deployment's tx hash, or
   * null when it was already deployed.
   */
  deployEscrow(terms: LegTerms): Promise<{ depositAddress: string; txRef: string | null }>;

  /** The address a signature over the payout's typed data recovers to (EIP-55), or null when it does not parse. */
  recoverSigner(payout: UnsignedPayout, signature: string): Promise<string | null>;

  /**
   * The relayer's signed `executePayout` transaction for the payout with these signatures (2 of 3),
   * not yet sent. Estimates gas, so it throws when the call would revert (with the contract's error
   * name in the message).
   */
  signPayoutTransaction(
    payout: UnsignedPayout,
    signatures: readonly PartySignature[],
  ): Promise<SignedTransaction>;

  /** The relayer's signed `refundAfterDeadline` on the leg's escrow, not yet sent. */
  signRefundAfterDeadline(depositAddress: string): Promise<SignedTransaction>;

  /** The relayer's signed `returnForeignAsset(token)` (null = ETH), not yet sent. */
  signReturnForeignAsset(depositAddress: string, tokenAddress: string | null): Promise<SignedTransaction>;

  /** The relayer's signed `sweep()`, not yet sent. */
  signSweep(depositAddress: string): Promise<SignedTransaction>;

  /**
   * The relayer's transaction signed again with the same nonce and a higher fee (each fee field
   * +12.5%, or the node's current ask when higher), not yet sent: sent, it replaces a transaction
   * stuck in the mempool. Only one of the two can ever be mined.
   */
  bumpFee(transaction: SignedTransaction): Promise<SignedTransaction>;

  /** Sends a signed transaction; sending one the node already knows or has mined is not an error. */
  broadcast(transaction: SignedTransaction): Promise<void>;

  /**
   * What a mined transaction moved out of the escrow at `depositAddress` (Paid, FeePaid,
   * RefundedAfterDeadline, Swept events), classified against the depositor's refund address; empty
   * when it is not mined or reverted. `reverted` says the latter.
   */
  outgoingMovements(
    txRef: string,
    depositAddress: string,
    depositorRefundAddress: string,
  ): Promise<{ reverted: boolean; movements: OutgoingMovement[] }>;

  /** Whether the escrow at the address has been settled (a payout or a deadline refund executed). */
  isSettled(depositAddress: string): Promise<boolean>;

  /** The block hash at a height, null above the tip: the watcher checks its cursor with it to notice reorgs. */
  blockRefAt(height: bigint): Promise<string | null>;
}
