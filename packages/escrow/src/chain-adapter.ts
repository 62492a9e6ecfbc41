import type { Chain } from '@covenant/domain';
import type { SettlementPlan } from './settlement-plan.js';
import type { EscrowLeg, Leg, LegSigners } from './types.js';

/**
 * How deep a movement must be before it counts. `depth` counts blocks on top of the one that
 * included it (Bitcoin: 2; a devnet: 1); `finalized` waits for the chain's own finality (Ethereum's
 * finalized checkpoint, Solana's finalized commitment), with `confirmations` the depth shown to
 * users until then.
 */
export interface ConfirmationPolicy {
  finality: 'depth' | 'finalized';
  confirmations: number;
}

/**
 * Everything that fixes a leg's custody before its deposit address exists: the accepted terms of
 * the leg and the three keys.
 */
export type LegTerms = { dealId: string } & Omit<
  EscrowLeg,
  'escrowId' | 'depositAddress' | 'requiredConfirmations'
>;

/** Which deposit addresses on this chain belong to an open leg. */
export interface WatchedLeg {
  escrowId: string;
  leg: Leg;
  depositAddress: string;
  tokenAddress: string | null;
}

/**
 * Answers "which of these addresses are ours?" in one indexed query (the unique
 * (chain, deposit_address) index of escrow_legs), so a scan costs per movement on the chain, never
 * per open escrow. Addresses are compared exactly, so an adapter always writes them in one
 * canonical form, the one `depositAddress` returns (EIP-55 checksummed on Ethereum).
 */
export interface DepositAddressIndex {
  match(depositAddresses: readonly string[]): Promise<ReadonlyMap<string, WatchedLeg>>;
}

/** A block range to scan, inclusive, by height (block number, slot). */
export interface ScanRange {
  fromHeight: bigint;
  toHeight: bigint;
}

/** Value that reached a watched deposit address. */
export interface DepositMovement {
  watched: WatchedLeg;
  /** The token that moved, null for the native coin; a mismatch with the leg's token is a wrong-token deposit. */
  tokenAddress: string | null;
  amount: bigint;
  txRef: string;
  position: number;
  blockRef: string;
  height: bigint;
  /** The sender when the chain says so (Ethereum, Solana); null on Bitcoin, where inputs do not name one. */
  from: string | null;
}

export interface ScanResult {
  movements: DepositMovement[];
  /** The last height scanned; the next scan starts after it. */
  scannedTo: bigint;
}

/** Where a transaction stands now; a block ref different from the one recorded means a reorg. */
export type TxStatus =
  | { state: 'unknown' }
  | { state: 'mempool' }
  | { state: 'included'; blockRef: string; height: bigint; confirmations: number; final: boolean };

/**
 * A payout ready to sign, in the chain's own format, opaque to the engine: EIP-712 typed data on
 * Ethereum, a PSBT on Bitcoin, a serialized transaction message on Solana. `signingPayload` is what
 * each signer signs (what the browser shows and signs with the escrow key).
 */
export interface UnsignedPayout {
  chain: Chain;
  escrowId: string;
  leg: Leg;
  /** A stable identifier of this exact payout, so building it twice (a job retried) yields the same one. */
  payoutRef: string;
  signingPayload: unknown;
}

export interface PartySignature {
  signer: keyof LegSigners;
  signature: string;
}

/**
 * The contract every chain implements. The engine decides what should happen (leg state,
 * settlement plan, reconciliation); an adapter only knows how to do it on its chain.
 *
 * Ethereum: the deposit address is the CREATE2 address of the leg's escrow clone, computed from the
 * factory and a salt committing to the terms; deposits are ERC-20 Transfer logs (and the escrow's
 * own event for ETH); a payout is EIP-712 typed data approved by 2 of 3 and submitted as one call
 * that pays receiver and fee.
 *
 * Bitcoin: the deposit address is a P2WSH 2-of-3 (sorted keys) per leg, so each leg has its own
 * address; deposits are outputs paying that script, found by scanning each block's outputs
 * against the index; a payout is a PSBT spending every deposit output to one output per transfer
 * of the plan (the platform fee output included), signed by the giving party and the platform, then
 * finalized and broadcast. The network fee has no counterpart on account chains, so the Bitcoin
 * adapter owns the rule that pays it. `position` is the vout.
 *
 * Solana: the deposit address is the token account owned by an SPL multisig (m = 2 of buyer,
 * seller, platform) derived for the leg; deposits are token balance changes of that account; a
 * payout is a transaction of SPL transfers from it that two of the multisig signers sign.
 */
export interface ChainAdapter {
  readonly chain: Chain;
  readonly confirmationPolicy: ConfirmationPolicy;

  /** The leg's deposit address, derived deterministically: the same terms and keys always give the same address. */
  depositAddress(terms: LegTerms): Promise<string>;

  /**
   * Every movement in the range that pays a watched deposit address. The adapter reads the
   * range's movements once and asks the index which recipients are ours.
   */
  scanDeposits(range: ScanRange, index: DepositAddressIndex): Promise<ScanResult>;

  /** How deep a transaction is now, to confirm ledger entries or notice that a reorg dropped them. */
  confirmations(txRef: string): Promise<TxStatus>;

  /** The transaction that carries out a plan for a leg, unsigned. Deterministic for the same inputs. */
  buildPayout(leg: EscrowLeg, plan: SettlementPlan): Promise<UnsignedPayout>;

  /** Submits a payout with the signatures it needs (two of three); returns the transaction reference. */
  submit(payout: UnsignedPayout, signatures: readonly PartySignature[]): Promise<{ txRef: string }>;

  /** The chain tip's height (block number, slot). */
  currentHeight(): Promise<bigint>;
}

/** Whether a transaction is deep enough under a policy. */
export function meetsPolicy(policy: ConfirmationPolicy, status: TxStatus): boolean {
  if (status.state !== 'included') {
    return false;
  }
  return policy.finality === 'finalized' ? status.final : status.confirmations >= policy.confirmations;
}
