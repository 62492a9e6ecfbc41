import type { Db } from '@covenant/db';
import type { BitcoinNetwork } from '@covenant/domain';
import type { FileStore } from '../files/file-store.js';

/** Everything the travel use cases touch outside themselves. */
export interface TravelDeps {
  db: Db;
  /** Where quote files are kept encrypted (purpose 'travel_quote'). */
  fileStore: FileStore;
  now: () => Date;
  /** Which Bitcoin network a payee address on a BTC stable leg must belong to. */
  bitcoinNetwork: BitcoinNetwork;
}
