import type { Db } from '@covenant/db';
import type { FileStore } from '../files/file-store.js';

/** Everything the CIS use cases touch outside themselves. */
export interface CisDeps {
  db: Db;
  /** Where sheets (the form as JSON, the signed PDF) are kept encrypted. */
  fileStore: FileStore;
  now: () => Date;
}
