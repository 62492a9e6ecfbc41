import type { Db } from '@covenant/db';
import type { FileStore } from '../files/file-store.js';

/** Everything the dispute use cases touch outside themselves. */
export interface DisputeDeps {
  db: Db;
  /** Where evidence is kept encrypted (purpose 'dispute_evidence'); the mediators' view also reads CIS sheets from it. */
  fileStore: FileStore;
  now: () => Date;
}
