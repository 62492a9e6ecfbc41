import type { Db } from '@covenant/db';
import type { FastifyBaseLogger } from 'fastify';
import type { FileStore } from '../files/file-store.js';
import type { EnqueueWebhookDeps } from '../webhooks/enqueue-webhook-event.js';
import type { DatabaseLocks, EscrowChains } from './escrow-chains.js';
import type { EscrowCrashPoint } from './escrow-crash-point.js';

/** What every part of the escrow engine works with. */
export interface EscrowEngineDeps {
  db: Db;
  /** One engine pass at a time across server processes (the relayer's turns take their own lock). */
  locks: DatabaseLocks;
  now: () => Date;
  logger: FastifyBaseLogger;
  /** Each chain's adapter, built with the platform's signer: the engine signs nothing itself. */
  chains: EscrowChains;
  /** Hours after the funding deadline before anyone may refund an escrow on-chain: the time a funded deal has to settle. */
  settlementWindowHours: number;
  /** Seconds a sent payout may wait unmined before it is replaced by one paying a higher fee. */
  feeBumpAfterSeconds: number;
  /**
   * Seconds opening an escrow waits for its legs' deployments to be mined (outside the relayer's
   * turn) before it answers that they are on their way; a later call finds them deployed.
   */
  deploymentWaitSeconds: number;
  webhooks: EnqueueWebhookDeps;
  /** The parties' CIS sheets are files in it; its master key seals the Travel Rule document (ADR 024). */
  fileStore: FileStore;
  /** Tests only: where the process kills itself to prove a step survives a crash (never in production). */
  crashAt?: EscrowCrashPoint;
}
