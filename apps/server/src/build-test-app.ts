import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@covenant/db';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { AuthLimits } from './auth/auth-deps.js';
import { generateSigningKey, type SigningKey } from './auth/load-signing-key.js';
import { type ChainRegistry, emptyChainRegistry } from './chains/chain-registry.js';
import { type Config, loadConfig } from './config.js';
import { createMailboxMailer, mailboxDir } from './email/create-mailbox-mailer.js';
import type { Mailer } from './email/mailer.js';
import type { PlatformSigner } from './escrow/platform-signer.js';
import { createDeliverWebhookJob, type DeliverWebhookPayload } from './jobs/deliver-webhook-job.js';
import type { JobDefinition } from './jobs/job-definition.js';
import type { JobQueue } from './jobs/start-jobs.js';
import { createLogger } from './plugins/create-logger.js';
import { createDatabaseRateLimiter } from './plugins/rate-limit/create-database-rate-limiter.js';
import type { RateLimiter } from './plugins/rate-limit/rate-limiter.js';

export interface TestAppOptions {
  /** The file's shared test database (createTestDatabase); the caller closes it. */
  database: Database;
  /** Settings as environment variables, on top of NODE_ENV=test, LOG_LEVEL=silent and a fresh DATA_DIR. */
  env?: Record<string, string>;
  /** Changes to the parsed configuration (e.g. webDistDir). */
  config?: Partial<Config>;
  clock?: () => Date;
  logger?: FastifyBaseLogger;
  /** Defaults to the mailbox mailer writing into DATA_DIR/mailbox. */
  mailer?: Mailer;
  /** Defaults to the database rate limiter. */
  rateLimiter?: RateLimiter;
  /** Defaults to a fresh in-memory key. */
  signingKey?: SigningKey;
  /** A started job queue, for tests of background work; by default sending a job fails the test. */
  jobs?: Pick<JobQueue, 'send'>;
  /** The queue's webhook job (pass the one given to startJobs); defaults to the production policy. */
  deliverWebhookJob?: JobDefinition<DeliverWebhookPayload>;
  /** Defaults to no chains (no devnet is started); the caller stops the registry it passes. */
  chains?: ChainRegistry;
  /** Defaults to a key file in the test's DATA_DIR. */
  platformSigner?: PlatformSigner;
  /** Defaults to the production limits and a real sleep. */
  authLimits?: AuthLimits;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** The mailbox folder (the default mailer writes there; the dev mailbox reads it). */
  mailboxDir: string;
  /** Closes the app and its mailer and removes its DATA_DIR; the database stays open. */
  close(): Promise<void>;
}

/** The whole app on a real database, in a throw-away DATA_DIR, ready for `app.inject` or `app.listen`. */
export async function buildTestApp(options: TestAppOptions): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'covenant-test-'));
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATA_DIR: dataDir,
      ...options.env,
    }),
    ...options.config,
  };
  const clock = options.clock ?? (() => new Date());
  const mailer = options.mailer ?? createMailboxMailer(mailboxDir(dataDir), config.mailFrom, clock);
  const app = await buildApp({
    config,
    logger: options.logger ?? createLogger(config.logLevel),
    database: options.database,
    mailer,
    rateLimiter: options.rateLimiter ?? createDatabaseRateLimiter(options.database.db, clock),
    clock,
    signingKey: options.signingKey ?? (await generateSigningKey()),
    jobs: options.jobs ?? noJobQueue,
    deliverWebhookJob:
      options.deliverWebhookJob ??
      createDeliverWebhookJob({ db: options.database.db, now: clock, allowPrivateTargets: false }),
    chains: options.chains ?? emptyChainRegistry,
    ...(options.platformSigner ? { platformSigner: options.platformSigner } : {}),
    ...(options.authLimits ? { authLimits: options.authLimits } : {}),
  });
  return {
    app,
    config,
    mailboxDir: mailboxDir(dataDir),
    close: async () => {
      await app.close();
      await mailer.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const noJobQueue: Pick<JobQueue, 'send'> = {
  send: async (job) => {
    throw new Error(`job ${job.name} sent, but this test app has no job queue (pass jobs to buildTestApp)`);
  },
};
