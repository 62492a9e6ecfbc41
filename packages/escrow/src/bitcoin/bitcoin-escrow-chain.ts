import type { ConfirmationPolicy } from '../chain-adapter.js';
import type { EscrowChainAdapter, OpenedLeg } from '../escrow-chain-adapter.js';
import type { BitcoinAddressFormat, BitcoinNetworkName } from './bitcoin-network.js';
import type { FeeWalletOutpoint } from './bump-bitcoin-payout-fee.js';
import type { BitcoinFeeWalletKey, BitcoinPlatformKey } from './platform-bitcoin-key.js';

export interface BitcoinEscrowChainOptions {
  /** Bitcoin Core's (or bcoin's) JSON-RPC; the node needs a transaction index (`-txindex`). */
  rpcUrl: string;
  rpcUser?: string;
  rpcPassword?: string;
  network: BitcoinNetworkName;
  /** Overrides the network's address encoding (BITCOIN_CORE_REGTEST for a Core regtest node). */
  addressFormat?: BitcoinAddressFormat;
  /** Where the 1 bp platform fee goes: a P2WPKH of the fee wallet's key, so CPFP can spend it. */
  feeAddress: string;
  confirmationPolicy: ConfirmationPolicy;
  /** The platform's leg keys (BIP 32 m/0/keyIndex of its root); a KMS can implement it. */
  platformKey: BitcoinPlatformKey;
  /** Bounds of the payout fee rate in whole sat/vB; estimatesmartfee (2 blocks) is clamped to them. */
  feeRates: { floor: bigint; ceiling: bigint };
  /** The dust limit of an output script; Bitcoin Core's rule (coreDustLimit) without it. */
  dustLimit?: (outputScript: Uint8Array) => bigint;
  /**
   * The key of the fee address, for CPFP (bumpFee), and where to find its other confirmed outputs
   * when a fee output alone cannot pay the child; bumpFee throws without it.
   */
  feeWallet?: { key: BitcoinFeeWalletKey; outpoints?: () => Promise<readonly FeeWalletOutpoint[]> };
  /** The most deposit outputs one payout spends; `maxBitcoinPayoutInputs` without it. */
  maxPayoutInputs?: number;
}

/**
 * The most deposit outputs a Bitcoin payout spends. A 2-of-3 P2WSH input weighs about 420 WU and a
 * transaction is relayed only up to 400,000 WU (about 950 such inputs): 500 leaves room for the
 * outputs and for a fee bump, and a payout's network fee stays bounded.
 */
export const maxBitcoinPayoutInputs = 500;

/**
 * The Bitcoin adapter. `isSettled` needs the leg's deposit outputs (the chain has no account to
 * ask) and throws without them: the leg is settled when a mined transaction spent every one.
 */
export interface BitcoinEscrowChain extends EscrowChainAdapter {
  readonly chain: 'BTC';
  readonly network: BitcoinNetworkName;
  readonly feeAddress: string;
  openLeg(
    terms: Parameters<EscrowChainAdapter['openLeg']>[0],
  ): Promise<OpenedLeg & { custody: BitcoinCustody }>;
}

/** What the API returns with a Bitcoin leg so anyone can recompute its address. */
export interface BitcoinCustody extends Record<string, unknown> {
  witness_script: string;
  public_keys: { buyer: string; seller: string; platform: string };
}
