import {
  type Chain,
  escrowLegNames,
  escrowLegStates,
  escrowStatusValues,
  type TokenSymbol,
} from '@covenant/domain';

/**
 * The two legs of every escrow: the asset leg is deposited by the seller and goes to the buyer; the
 * stable leg is deposited by the buyer and goes to the seller.
 */
export const legs = escrowLegNames;
export type Leg = (typeof legs)[number];

/** Who deposits each leg; the other party receives it. */
export const legDepositor: Record<Leg, 'buyer' | 'seller'> = { asset: 'seller', stable: 'buyer' };
export const legReceiver: Record<Leg, 'buyer' | 'seller'> = { asset: 'buyer', stable: 'seller' };
/** The leg each party gives (deposits): the inverse of `legDepositor`. */
export const legGivenBy: Record<'buyer' | 'seller', Leg> = { buyer: 'stable', seller: 'asset' };

/** Where a leg stands, derived from its ledger (see leg-state.ts), never set by hand. */
export const legStates = escrowLegStates;
export type LegState = (typeof legStates)[number];

/** An escrow as a whole, across its two legs. */
export const escrowStatuses = escrowStatusValues;
export type EscrowStatus = (typeof escrowStatuses)[number];

/**
 * What moved on-chain for a leg. `deposit` comes in; everything else goes out: `payout` to the
 * receiver (or to either party under a mediator's split), `fee` to the chain's fee address,
 * `refund` back to the depositor (a refund, the excess at settlement, the depositor's share of a
 * split), `sweep` a deposit that arrived after settlement, sent back to the depositor,
 * `network_fee` what a UTXO chain's payout left to the miner (inputs − outputs), `travel` a
 * payment to a travel provider for the deal's meeting, made before the leg settles.
 */
export const ledgerEntryKinds = [
  'deposit',
  'payout',
  'fee',
  'refund',
  'sweep',
  'network_fee',
  'travel',
] as const;
export type LedgerEntryKind = (typeof ledgerEntryKinds)[number];

/**
 * `pending` is seen but not yet deep enough for the chain's confirmation policy; `confirmed` is;
 * `reorged` dropped out of the canonical chain and no longer counts for anything.
 */
export const ledgerEntryStatuses = ['pending', 'confirmed', 'reorged'] as const;
export type LedgerEntryStatus = (typeof ledgerEntryStatuses)[number];

/** One on-chain movement of one leg, in the leg token's base units. */
export interface LedgerEntry {
  kind: LedgerEntryKind;
  amount: bigint;
  /** The transaction: an Ethereum tx hash, a Bitcoin txid, a Solana signature. */
  txRef: string;
  /**
   * Where in the transaction: the log index (Ethereum), the output index (Bitcoin), the
   * instruction index (Solana). With txRef and kind it identifies the movement on its chain.
   */
  position: number;
  /** The block (hash) or slot the transaction was included in, null while unconfirmed. */
  blockRef: string | null;
  /** The block height or slot, null while unconfirmed. */
  height: bigint | null;
  confirmations: number;
  status: LedgerEntryStatus;
}

/** The parties' signing keys of a leg: Ethereum addresses, Bitcoin or Solana public keys. */
export interface LegSigners {
  buyer: string;
  seller: string;
  /** The platform's (mediator's) key, held by the server's signer. */
  platform: string;
}

/** A leg as the engine keeps it: the accepted terms that fix it, where it is paid and how deep deposits must be. */
export interface EscrowLeg {
  escrowId: string;
  leg: Leg;
  chain: Chain;
  symbol: TokenSymbol;
  /** The token contract or mint; null for the chain's native coin (BTC, ETH, SOL). */
  tokenAddress: string | null;
  requiredAmount: bigint;
  depositAddress: string;
  depositorRefundAddress: string;
  receiverPayoutAddress: string;
  requiredConfirmations: number;
  /** The funding deadline: a leg not funded by then is refunded and the deal cancelled. */
  deadline: Date;
  /**
   * From when anyone may refund the leg on-chain without signatures (the Ethereum escrow's
   * deadline): the funding deadline plus the settlement window. Null where the chain has no timelock.
   */
  refundAfter: Date | null;
  /** The three keys of the 2-of-3 custody, fixed at creation: the deposit address is derived from them. */
  signers: LegSigners;
}

/** What the API and the deal page show of a leg. */
export interface EscrowLegView {
  leg: Leg;
  chain: Chain;
  symbol: TokenSymbol;
  requiredAmount: bigint;
  depositAddress: string;
  /** Confirmed deposits, the only ones that fund a leg. */
  received: bigint;
  /** Deposits seen but not yet deep enough. */
  pending: bigint;
  /** The depth of the shallowest deposit still counting, 0 without one: what the progress bar shows. */
  confirmations: number;
  requiredConfirmations: number;
  deadline: Date;
  state: LegState;
}
