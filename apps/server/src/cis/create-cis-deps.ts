import type { FastifyInstance } from 'fastify';
import { loadFileStore } from '../files/load-file-store.js';
import type { CisDeps } from './cis-deps.js';

/** Gathers the CIS use cases' dependencies from the app; the file store's master key is loaded here, once. */
export async function createCisDeps(app: FastifyInstance): Promise<CisDeps> {
  const { config } = app;
  return {
    db: app.database.db,
    fileStore: await loadFileStore({ dataDir: config.dataDir, fileEncryptionKey: config.fileEncryptionKey }),
    now: app.clock,
  };
}
