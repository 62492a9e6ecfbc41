import type {
  ChainAdapter,
  DepositAddressIndex,
  DepositMovement,
  LegTerms,
  UnsignedPayout,
} from './chain-adapter.js';
import type { SettlementPlan } from './settlement-plan.js';
import type { EscrowLeg, Leg } from './types.js';

/** What a sweep may need to know of the leg beyond its deposit address. */
export interface SweepContext {
  dealId: string;
  leg: Leg;
  depositorRefundAddress: string;
}

/** Which party approves a payout, where the payout must name it (`payoutNamesApprover`). */
export type PayoutApprover = 'buyer' | 'seller';

/** A confirmed deposit of a leg, as its ledger holds it: what a UTXO chain's payout spends. */
export interface DepositOutput {
  txRef: string;
  /** The output index (vout). */
  position: number;
  amount: bigint;
}

/** A transaction signed ahead of broadcast: stored before it is sent, re-sent as is after a crash. */
export interface SignedTransaction {
  /** The serialized transaction (hex on Ethereum and Bitcoin). */
  rawTransaction: string;
  /** Its hash or id, known before broadcast. */
  txRef: string;
}

/**
 * A movement out of a leg, read from a mined transaction. `network_fee` is what a UTXO chain's
 * transaction leaves to the miner (inputs − outputs, dust folded in included): it leaves the escrow
 * like any other movement, so the leg's books balance to the base unit.
 */
export interface OutgoingMovement {
  kind: 'payout' | 'fee' | 'refund' | 'sweep' | 'network_fee' | 'travel';
  /** The recipient; empty for the network fee. */
  to: string;
  amount: bigint;
  /** The log index (Ethereum), the output index (Bitcoin; the network fee takes the output count). */
  position: number;
  blockRef: string;
  height: bigint;
}

/** What opening a leg produced: its deposit address, ready to receive, and what proves its custody. */
/** A foreign asset to send back from an escrow: what arrived in which deposit, and to whom. */
export interface ForeignAssetReturnRequest {
  /** The deposit that brought it: its transaction and log index. */
  txRef: string;
  position: number;
  /** The token, or null for ETH. */
  tokenAddress: string | null;
  amount: bigint;
  to: string;
}

export interface OpenedLeg {
  depositAddress: string;
  /** The transaction that made the address ready (the Ethereum escrow's deployment); null when none was needed or sent. */
  txRef: string | null;
  /**
   * What lets anyone check the custody from public data, returned with the leg by the API:
   * Bitcoin's `{ witness_script, public_keys: { buyer, seller, platform } }`; null on Ethereum (the
   * escrow contract is public).
   */
  custody: Record<string, unknown> | null;
}

/** The outcome of checking a party's approval of a payout. */
export type ApprovalCheck =
  /** `signature` is what is stored and later combined with the platform's (normalized form). */
  | { valid: true; signature: string }
  /** `signer` is who did sign, when that can be told (an EIP-712 signature recovers to an address). */
  | { valid: false; signer: string | null; reason: string };

/** What raising the fee of a sent payout produced. */
export interface FeeBump {
  /**
   * True: `transaction` replaces the payout's transaction (Ethereum: same nonce, higher fee); the
   * chain mines one of the two. False: `transaction` is a child that pays for the payout's
   * transaction (Bitcoin CPFP); the payout's transaction stays what it was.
   */
  replaces: boolean;
  transaction: SignedTransaction;
}

/** The leg facts an adapter needs to read what left it. */
export type LegOutflowContext = Pick<
  EscrowLeg,
  'depositAddress' | 'depositorRefundAddress' | 'receiverPayoutAddress'
>;

/**
 * Everything the escrow engine asks of a chain, beyond the `ChainAdapter` basics: opening a leg,
 * checking approvals, co-signing with the platform's key (which the adapter is built with), signing
 * and sending transactions, reading what left a leg, and keeping a stuck payout moving. Optional
 * members are capabilities only some chains have; the engine checks for them.
 */
export interface EscrowChainAdapter extends ChainAdapter {
  /**
   * The platform's signer in a new leg's custody. Bitcoin derives a BIP 32 child per leg
   * (`keyIndex`, allocated by the engine and stored with the leg) so no two legs share an address;
   * Ethereum uses one address for every leg and ignores the index.
   */
  platformSigner(keyIndex: number): Promise<string>;

  /**
   * The unsigned payout carrying out `plan`, deterministic for the same inputs. A UTXO chain spends
   * exactly `deposits` (every confirmed deposit output of the leg) and takes the network fee from
   * the recipient's output, folding an output below the dust limit into it; the payload then says
   * so (`signingPayload.summary`). Account chains ignore `deposits`.
   */
  buildPayout(
    leg: EscrowLeg & { platformKeyIndex: number; approver?: PayoutApprover },
    plan: SettlementPlan,
    deposits?: readonly DepositOutput[],
  ): Promise<UnsignedPayout>;

  /**
   * True where a payout's transaction names the keys that sign it (Solana: the multisig signers are
   * accounts of the message), so the party approving must be chosen before it is built: the engine
   * builds a payout either party may approve (a mediator's decision, a late deposit's return) once
   * per party, `leg.approver` saying which, and carries out the one the approving party signed.
   * Elsewhere a payout is the same whoever approves it.
   */
  readonly payoutNamesApprover?: boolean;

  /**
   * The most deposit outputs one payout may spend (a UTXO chain: a transaction with more would be
   * too large to relay). The engine then has a payout spend the largest outputs, as few as pay it
   * (`choosePayoutInputs`); the rest stays on the leg and goes back to the depositor afterwards, as
   * late deposits. Unset: every deposit output (account chains have none).
   */
  readonly maxPayoutInputs?: number;

  /**
   * Whether the escrow can pay part of a leg out before it settles (travel for the deal's meeting),
   * as a `travel` plan, and settle the rest afterwards.
   */
  readonly partialPayouts?: boolean;

  /**
   * Makes the leg's deposit address ready to receive (deploys the Ethereum escrow; nothing to send
   * on Bitcoin). Idempotent: the same terms give the same address.
   */
  openLeg(terms: LegTerms): Promise<OpenedLeg>;

  /**
   * Checks that `approval` (an EIP-712 signature on Ethereum, a signed PSBT in base64 on Bitcoin) is
   * `expectedSigner`'s valid signature over exactly this payout, as the engine built it.
   */
  verifyApproval(payout: UnsignedPayout, approval: string, expectedSigner: string): Promise<ApprovalCheck>;

  /** The platform's signature over the payout, with its key for the leg (`keyIndex` as in `platformSigner`). */
  cosign(payout: UnsignedPayout, keyIndex: number): Promise<string>;

  /**
   * The complete transaction carrying out the payout with a party's and the platform's signatures,
   * not yet sent. Throws when the chain would refuse it (with the reason in the message).
   */
  signPayoutTransaction(
    payout: UnsignedPayout,
    signatures: readonly { signer: 'buyer' | 'seller' | 'platform'; signature: string }[],
  ): Promise<SignedTransaction>;

  /** Sends a signed transaction; sending one the node already knows or has mined is not an error. */
  broadcast(transaction: SignedTransaction): Promise<void>;

  /** What a mined transaction moved out of the leg; `reverted` when it failed on-chain (Ethereum). */
  outgoingMovements(
    txRef: string,
    leg: LegOutflowContext,
  ): Promise<{ reverted: boolean; movements: OutgoingMovement[] }>;

  /**
   * Whether nothing can be paid out of the leg any more (the escrow settled; every deposit output
   * spent). A UTXO chain needs the leg's deposit outputs (its ledger's deposits) to tell; account
   * chains ignore them.
   */
  isSettled(leg: LegOutflowContext, deposits?: readonly DepositOutput[]): Promise<boolean>;

  /** The block hash at a height, null above the tip: the watcher checks its cursor with it to notice reorgs. */
  blockRefAt(height: bigint): Promise<string | null>;

  /**
   * Raises the fee of a sent payout still not mined: a replacement (Ethereum) or a child paying
   * for it (Bitcoin). `attempt` counts from 1. Throws when it cannot (the reason in the message).
   */
  bumpFee(payout: UnsignedPayout, sent: SignedTransaction, attempt: number): Promise<FeeBump>;

  /**
   * A subscription to the node's new blocks, pushed by the node (not a poll): `onBlock` runs as each
   * block the node announces arrives; `onError` once when the subscription fails, after which it
   * is over (the caller subscribes again). Returns what ends it. Ethereum: `eth_subscribe`
   * `newHeads` over WebSocket; Bitcoin: the node's `waitfornewblock` long poll; Solana:
   * `slotSubscribe` over the RPC's WebSocket. Absent: the chain's blocks are found by polling only.
   */
  subscribeNewBlocks?(handlers: NewBlockHandlers): NewBlockSubscription;

  /** Deposits seen in the mempool, not yet in a block (blockRef and height empty): shown as pending at once. */
  scanMempool?(index: DepositAddressIndex): Promise<Omit<DepositMovement, 'blockRef' | 'height'>[]>;

  /**
   * Ethereum: the relayer's signed deployment of the leg's escrow, not yet sent, so the engine can
   * store it first and release the relayer's turn once it is sent (`openLeg` waits for the receipt
   * instead); `transaction` is null when the escrow is already deployed. With it, `isDeployed`.
   */
  signDeployment?(
    terms: LegTerms,
  ): Promise<{ depositAddress: string; transaction: SignedTransaction | null }>;

  /** Whether the leg's escrow is deployed at its address (its code is there). */
  isDeployed?(depositAddress: string): Promise<boolean>;

  /**
   * A sent relayer transaction signed again on the same nonce paying more (the rules of `bumpFee`),
   * for the relayer's transactions that are not payouts (deployments, sweeps, wrong-token
   * returns). Absent on chains with no fee market to outbid (Solana).
   */
  bumpRelayerTransaction?(sent: SignedTransaction, attempt: number): Promise<SignedTransaction>;

  /**
   * Whether a payout's signed transaction, unknown to the node now, may still land later (Solana: a
   * durable-nonce transaction lives until its nonce moves, and an RPC that answered its send with an
   * error may have forwarded it). Such a payout must not be built anew: it is sent again as it is.
   * Chains without it: an unknown transaction whose send was refused can never land.
   */
  payoutMayStillLand?(payout: UnsignedPayout): Promise<boolean>;

  /**
   * Solana: a payout that failed on-chain moved nothing (a transaction is all or nothing) and used up
   * its durable nonce, so it is built again from what the leg holds rather than failed for staff.
   */
  readonly rebuildsRevertedPayouts?: boolean;

  /** Ethereum: anyone's refund after the escrow's on-chain deadline, no signatures needed. */
  signRefundAfterDeadline?(depositAddress: string): Promise<SignedTransaction>;

  /**
   * Ethereum: the mined transaction that refunded the escrow after its deadline (anyone may send
   * one, the depositor included), searched from the first block at or after `refundAfter`; null
   * when there is none.
   */
  findDeadlineRefund?(depositAddress: string, refundAfter: Date): Promise<string | null>;

  /**
   * Ethereum: sends a token other than the leg's (`tokenAddress`, null = ETH) that arrived in the
   * deposit `arrival` back to `to`, which must be one of the two parties' addresses in the leg's
   * terms (the platform's signature alone allows no other).
   */
  signReturnForeignAsset?(
    depositAddress: string,
    request: ForeignAssetReturnRequest,
  ): Promise<SignedTransaction>;

  /**
   * Pays whatever reached a settled leg back to the depositor, no party signatures needed: the
   * Ethereum escrow's `sweep()`; on Solana, lamports sent to a closed leg account's address (a key
   * the platform derives from the deal and leg). Throws when there is nothing it can return.
   */
  signSweep?(depositAddress: string, leg: SweepContext): Promise<SignedTransaction>;

  /**
   * Whether `signSweep` can return a late deposit of this leg; without it, of every leg. Solana
   * sweeps only SOL legs (lamports at the closed account's address, whose key the platform derives);
   * a token leg's late deposit lands in the multisig's re-created account and goes back by a payout.
   */
  sweeps?(leg: Pick<EscrowLeg, 'tokenAddress'>): boolean;
}

/** What a new-block subscription calls. */
export interface NewBlockHandlers {
  onBlock(): void;
  onError(error: unknown): void;
}

/** A running new-block subscription. */
export interface NewBlockSubscription {
  /** Ends it: no handler runs once this resolves. */
  stop(): Promise<void>;
}

/**
 * Thrown by `signPayoutTransaction` when the payout as the parties signed it cannot be carried out,
 * while nothing has left the leg: its lifetime ended (on Solana, the leg's durable nonce moved on),
 * or the chain no longer takes it as it is (on Bitcoin, a fee rate below what the node now relays).
 * The engine then builds the payout again from the same plan and asks for the approvals again.
 */
export class PayoutExpiredError extends Error {
  override readonly name = 'PayoutExpiredError';
  constructor(
    message: string,
    /** Why, for the parties asked to approve it again: told in words by the deal's history. */
    readonly expiry: PayoutExpiry,
  ) {
    super(message);
  }
}

/**
 * Why a signed payout cannot be carried out as it is: its durable nonce was used (Solana), the leg's
 * account no longer holds what it pays (a deposit arrived after it was built), or its fee rate is
 * below what the node relays now (Bitcoin).
 */
export type PayoutExpiry = 'nonce_used' | 'balance_changed' | 'fee_below_minimum';
