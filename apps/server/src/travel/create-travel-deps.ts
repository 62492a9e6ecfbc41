import type { FastifyInstance } from 'fastify';
import { loadFileStore } from '../files/load-file-store.js';
import type { TravelDeps } from './travel-deps.js';

/** Gathers the travel use cases' dependencies from the app; the file store's master key is loaded here, once. */
export async function createTravelDeps(app: FastifyInstance): Promise<TravelDeps> {
  const { config } = app;
  return {
    db: app.database.db,
    fileStore: await loadFileStore({ dataDir: config.dataDir, fileEncryptionKey: config.fileEncryptionKey }),
    now: app.clock,
    bitcoinNetwork: config.bitcoinNetwork,
  };
}
