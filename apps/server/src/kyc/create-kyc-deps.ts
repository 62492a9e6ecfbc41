import type { FastifyInstance } from 'fastify';
import { loadFileStore } from '../files/load-file-store.js';
import type { KycDeps } from './kyc-deps.js';

/** Gathers the KYC use cases' dependencies from the app; the file store's master key is loaded here, once. */
export async function createKycDeps(app: FastifyInstance): Promise<KycDeps> {
  const { config } = app;
  return {
    db: app.database.db,
    fileStore: await loadFileStore({ dataDir: config.dataDir, fileEncryptionKey: config.fileEncryptionKey }),
    mailer: app.mailer,
    now: app.clock,
    publicUrl: config.publicUrl,
    log: app.log,
  };
}
