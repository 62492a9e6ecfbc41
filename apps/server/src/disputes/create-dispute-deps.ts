import type { FastifyInstance } from 'fastify';
import { loadFileStore } from '../files/load-file-store.js';
import type { DisputeDeps } from './dispute-deps.js';

/** Gathers the dispute use cases' dependencies from the app; the file store's master key is loaded here, once. */
export async function createDisputeDeps(app: FastifyInstance): Promise<DisputeDeps> {
  const { config } = app;
  return {
    db: app.database.db,
    fileStore: await loadFileStore({ dataDir: config.dataDir, fileEncryptionKey: config.fileEncryptionKey }),
    now: app.clock,
  };
}
