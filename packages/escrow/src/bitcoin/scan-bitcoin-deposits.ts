import { minimumBitcoinDepositSats } from '@covenant/domain';
import type { DepositAddressIndex, DepositMovement, ScanRange, ScanResult } from '../chain-adapter.js';
import type { BitcoinAddressFormat } from './bitcoin-network.js';
import { type BitcoinRpc, unknownToNull } from './bitcoin-rpc.js';
import {
  outputAddress,
  type ParsedBitcoinTransaction,
  parseRawBlock,
  parseRawTransaction,
} from './parse-raw-bitcoin.js';

type PendingDeposit = Omit<DepositMovement, 'blockRef' | 'height'>;

/** Outputs below this are not deposits (why: `minimumBitcoinDepositSats`, shared with the deposit screen). */
export const minimumDepositOutputSats = minimumBitcoinDepositSats;

/** Every output of `transactions` paying a watched address, found with one index query. */
async function depositsIn(
  transactions: readonly ParsedBitcoinTransaction[],
  index: DepositAddressIndex,
  addressFormat: BitcoinAddressFormat,
): Promise<PendingDeposit[]> {
  const paid = transactions.flatMap((tx) =>
    tx.outputs.flatMap((output, vout) => {
      if (output.amount < minimumDepositOutputSats) return [];
      const address = outputAddress(output.script, addressFormat);
      return address ? [{ txid: tx.txid, vout, address, amount: output.amount }] : [];
    }),
  );
  if (paid.length === 0) return [];
  const watched = await index.match([...new Set(paid.map((output) => output.address))]);
  return paid.flatMap((output) => {
    const leg = watched.get(output.address);
    return leg
      ? [
          {
            watched: leg,
            tokenAddress: null,
            amount: output.amount,
            txRef: output.txid,
            position: output.vout,
            from: null,
          },
        ]
      : [];
  });
}

/**
 * Deposits in the blocks of `range`: each block is read raw (getblockhash, getblock verbosity 0),
 * its outputs' addresses are asked of the index in one query, and every output paying a watched
 * leg is a deposit at its vout. Inputs do not name a sender on Bitcoin, so `from` is null.
 */
export async function scanBitcoinDeposits(
  rpc: BitcoinRpc,
  addressFormat: BitcoinAddressFormat,
  range: ScanRange,
  index: DepositAddressIndex,
): Promise<ScanResult> {
  const movements: DepositMovement[] = [];
  for (let height = range.fromHeight; height <= range.toHeight; height++) {
    const blockRef = await rpc<string>('getblockhash', [Number(height)]);
    const transactions = parseRawBlock(await rpc<string>('getblock', [blockRef, 0]));
    for (const deposit of await depositsIn(transactions, index, addressFormat)) {
      movements.push({ ...deposit, blockRef, height });
    }
  }
  return { movements, scannedTo: range.toHeight };
}

/**
 * Deposits in the node's mempool. Transactions are fetched once (getrawtransaction) and kept while
 * the mempool holds them; every call asks the index once about all of their outputs.
 */
export function createBitcoinMempoolScanner(rpc: BitcoinRpc, addressFormat: BitcoinAddressFormat) {
  const seen = new Map<string, ParsedBitcoinTransaction | null>();
  return async (index: DepositAddressIndex): Promise<PendingDeposit[]> => {
    const txids = await rpc<string[]>('getrawmempool');
    const current = new Set(txids);
    for (const txid of seen.keys()) {
      if (!current.has(txid)) seen.delete(txid);
    }
    for (const txid of txids) {
      if (seen.has(txid)) continue;
      // Mined or evicted since getrawmempool answered: the block scan will see it if it was mined.
      const raw = await rpc<string>('getrawtransaction', [txid]).catch(unknownToNull);
      seen.set(txid, raw ? parseRawTransaction(raw) : null);
    }
    const transactions = [...seen.values()].filter((tx): tx is ParsedBitcoinTransaction => tx !== null);
    return depositsIn(transactions, index, addressFormat);
  };
}
