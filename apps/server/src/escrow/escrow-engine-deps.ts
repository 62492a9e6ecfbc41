import type { Db } from '@covenant/db';
import type { FastifyBaseLogger } from 'fastify';
import type { EnqueueWebhookDeps } from '../webhooks/enqueue-webhook-event.js';
import type { DatabaseLocks, EscrowChains } from './escrow-chains.js';
import type { PlatformSigner } from './platform-signer.js';

/** Where a test may stop the process dead (SIGKILL) to prove a step survives a crash; never in production. */
export type EscrowCrashPoint = 'after-cosign';

/** What every part of the escrow engine works with. */
export interface EscrowEngineDeps {
  db: Db;
  /** One engine pass at a time across server processes (the relayer's turns take their own lock). */
  locks: DatabaseLocks;
  now: () => Date;
  logger: FastifyBaseLogger;
  chains: EscrowChains;
  signer: PlatformSigner;
  /** Hours after the funding deadline before anyone may refund an escrow on-chain: the time a funded deal has to settle. */
  settlementWindowHours: number;
  /** Seconds a sent payout may wait unmined before it is replaced by one paying a higher fee. */
  feeBumpAfterSeconds: number;
  webhooks: EnqueueWebhookDeps;
  crashAt?: EscrowCrashPoint;
}
