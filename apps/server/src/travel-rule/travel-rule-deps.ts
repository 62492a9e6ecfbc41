import type { Db } from '@covenant/db';
import type { FileStore } from '../files/file-store.js';

/** Everything the Travel Rule use cases touch outside themselves. */
export interface TravelRuleDeps {
  db: Db;
  /** The CIS sheets are files in it; its master key seals the exchanged document (ADR 018). */
  fileStore: FileStore;
  now: () => Date;
}
