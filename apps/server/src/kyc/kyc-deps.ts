import type { Db } from '@covenant/db';
import type { Mailer } from '../email/mailer.js';
import type { FileStore } from '../files/file-store.js';

/** Everything the KYC use cases touch outside themselves. */
export interface KycDeps {
  db: Db;
  fileStore: FileStore;
  mailer: Mailer;
  now: () => Date;
  /** The site's origin, for links in e-mail. */
  publicUrl: string;
  /** Where a decision's e-mail that could not be sent is reported (the decision itself stands). */
  log: { error(details: object, message: string): void };
}
