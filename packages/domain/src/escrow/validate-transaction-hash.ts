import { base58 } from '@scure/base';
import type { Chain } from '../assets.js';

export type TransactionHashCheck = { ok: true } | { ok: false; reason: string };

const ethereumHash = /^0x[0-9a-fA-F]{64}$/;
const bitcoinTxid = /^[0-9a-fA-F]{64}$/;

/**
 * Whether `hash` can name a transaction on `chain`, so a malformed one is refused as the caller's
 * mistake rather than reaching the node's client, which throws on it (viem for a hash that is not
 * 32 bytes, @solana/kit for a signature that is not 64). Ethereum: 0x and 64 hex digits. Bitcoin:
 * the txid, 64 hex digits. Solana: the transaction's first signature, base58 of 64 bytes.
 */
export function validateTransactionHash(chain: Chain, hash: string): TransactionHashCheck {
  switch (chain) {
    case 'ETH':
      return ethereumHash.test(hash)
        ? { ok: true }
        : { ok: false, reason: 'An Ethereum transaction hash is 0x and 64 hex digits' };
    case 'BTC':
      return bitcoinTxid.test(hash)
        ? { ok: true }
        : { ok: false, reason: 'A Bitcoin transaction id is 64 hex digits' };
    case 'SOL':
      return isSolanaSignature(hash)
        ? { ok: true }
        : { ok: false, reason: 'A Solana transaction is named by its signature: 64 bytes in base58' };
  }
}

function isSolanaSignature(hash: string): boolean {
  try {
    return base58.decode(hash).length === 64;
  } catch {
    return false;
  }
}
