// First, before any other module allocates (see the module).
import './tune-garbage-collector.js';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Database, openDatabase, schema } from '@covenant/db';
import { buildApp } from './app.js';
import { loadSigningKey } from './auth/load-signing-key.js';
import { sealClearTotpSecrets } from './auth/totp-secrets.js';
import { startChainRegistry } from './chains/start-chain-registry.js';
import { loadConfig } from './config.js';
import { createMailboxMailer, mailboxDir } from './email/create-mailbox-mailer.js';
import { createSmtpMailer } from './email/create-smtp-mailer.js';
import { checkPlatformSigner } from './escrow/check-platform-signer.js';
import { createFilePlatformSigner } from './escrow/platform-signer.js';
import { loadFileStore } from './files/load-file-store.js';
import { createDeliverWebhookJob } from './jobs/deliver-webhook-job.js';
import { createPruneIdempotencyKeysJob } from './jobs/prune-idempotency-keys.js';
import { createPruneMfaChallengesJob } from './jobs/prune-mfa-challenges.js';
import { createPruneOAuthStateJob } from './jobs/prune-oauth-state.js';
import { createPruneRateLimitsJob } from './jobs/prune-rate-limits.js';
import { type JobQueue, startJobs } from './jobs/start-jobs.js';
import { createEraseMeetingPositionsJob } from './meetings/erase-meeting-positions.js';
import { createLogDestination } from './plugins/create-log-destination.js';
import { createLogger } from './plugins/create-logger.js';
import { createDatabaseRateLimiter } from './plugins/rate-limit/create-database-rate-limiter.js';
import { createRedisRateLimiter } from './plugins/rate-limit/create-redis-rate-limiter.js';
import { type DemoAccount, findDemoAccounts, seedDemoData } from './seed/seed-demo-data.js';
import { shouldSeedDemoData } from './seed/should-seed-demo-data.js';

/** After this long a shutdown stops waiting for requests and jobs to finish. */
const shutdownTimeoutMs = 15_000;

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const logger = createLogger(config.logLevel, createLogDestination(config.logFormat));
const clock = () => new Date();

try {
  const database = await openDatabase(
    config.databaseUrl
      ? { engine: 'postgres', url: config.databaseUrl }
      : { engine: 'pglite', dataDir: join(config.dataDir, 'pglite') },
  );
  await database.migrate();
  const { masterKey } = await loadFileStore({
    dataDir: config.dataDir,
    fileEncryptionKey: config.fileEncryptionKey,
  });
  // Demo accounts go only into a fresh database, never in production, and into one of DATABASE_URL
  // only when asked; replicas starting together take turns, so the second finds the accounts the first made.
  if (shouldSeedDemoData(config)) {
    await database.exclusively('seed-demo-data', () => seedIfEmpty(database, clock));
  } else if (config.env === 'production') await warnOfDemoAccounts(database, masterKey, logger);
  const sealed = await sealClearTotpSecrets(database.db, masterKey);
  if (sealed > 0) logger.info({ factors: sealed }, 'TOTP secrets stored in clear are now sealed');
  const deliverWebhookJob = createDeliverWebhookJob({
    db: database.db,
    now: clock,
    allowPrivateTargets: config.webhookAllowPrivate,
  });
  // The queue starts once the app (and its escrow engine, whose jobs it works) is built; nothing
  // sends a job before the app listens.
  let queue: JobQueue | undefined;
  const jobs: Pick<JobQueue, 'send'> = {
    send: async (job, data) => {
      if (!queue) throw new Error(`job ${job.name} sent before the job queue started`);
      await queue.send(job, data);
    },
  };
  const mailer = config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, config.mailFrom)
    : createMailboxMailer(mailboxDir(config.dataDir), config.mailFrom);
  const rateLimiter = config.redisUrl
    ? createRedisRateLimiter(config.redisUrl, clock, logger, `${config.redisKeyPrefix}rate-limit:`)
    : createDatabaseRateLimiter(database.db, clock);
  const signingKey = await loadSigningKey({
    jwtPrivateJwk: config.auth.jwtPrivateJwk,
    dataDir: config.dataDir,
  });
  // Every replica must hold the key the open escrows were made with (ADR 017); one that does not
  // stops here rather than co-sign payouts no escrow accepts.
  const platformSigner = await createFilePlatformSigner(config.dataDir);
  await checkPlatformSigner(database.db, platformSigner);
  const chains = await startChainRegistry(config);
  for (const chain of chains.chains) {
    logger.info(
      { chain: chain.chain, ...(chain.chainId ? { chainId: chain.chainId } : {}), devnet: chain.devnet },
      'chain ready',
    );
  }
  const app = await buildApp({
    config,
    logger,
    database,
    mailer,
    rateLimiter,
    clock,
    signingKey,
    jobs,
    deliverWebhookJob,
    chains,
    platformSigner,
  });
  queue = await startJobs({
    database,
    logger,
    jobs: [
      createPruneRateLimitsJob(database.db, clock),
      createPruneIdempotencyKeysJob(database.db, clock),
      createPruneOAuthStateJob(database.db, clock),
      createPruneMfaChallengesJob(database.db, clock),
      createEraseMeetingPositionsJob(database.db, clock, config.meetings.positionRetentionDays),
      deliverWebhookJob,
      ...app.escrow.jobs(),
    ],
  });
  const startedQueue = queue;
  await app.listen({ port: config.port, host: config.host });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    // Ctrl-C reaches the server twice under `npm start` (from the terminal and from npm): one is enough.
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing open requests and jobs');
    setTimeout(() => {
      logger.error('shutdown took too long; exiting anyway');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    await app.close();
    await startedQueue.stop();
    await chains.stop();
    await mailer.close();
    await rateLimiter.close();
    await database.close();
    logger.info('stopped');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stop(signal).catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
    });
  }

  const { port } = app.server.address() as AddressInfo;
  const url = `http://localhost:${port}`;
  const mailbox = !config.smtpUrl && config.env !== 'production';
  logger.info({ engine: database.engine, url }, 'listening');
  const demoAccounts = config.env === 'production' ? [] : await findDemoAccounts(database.db, masterKey);
  printWelcome(url, mailbox, demoAccounts);
} catch (error) {
  logger.fatal({ err: error }, 'the server could not start');
  process.exit(1);
}

async function seedIfEmpty(database: Database, clock: () => Date): Promise<void> {
  const anyUser = await database.db.select({ id: schema.users.id }).from(schema.users).limit(1);
  if (anyUser.length === 0) await seedDemoData(database.db, clock);
}

/** A database seeded before it went to production still holds the demo logins: the operator must remove them. */
async function warnOfDemoAccounts(database: Database, masterKey: Buffer, log: typeof logger): Promise<void> {
  const accounts = await findDemoAccounts(database.db, masterKey);
  if (accounts.length === 0) return;
  log.warn(
    { accounts: accounts.map((account) => account.email) },
    'demo accounts with published passwords exist in this production database; delete them',
  );
}

/** What a person starting the product locally needs first: where it runs, the mailbox, the demo logins. */
function printWelcome(url: string, mailbox: boolean, accounts: DemoAccount[]): void {
  const lines = ['', `  Covenant is running at ${url}`];
  if (mailbox) lines.push(`  E-mail is delivered to the local mailbox: ${url}/dev/mailbox`);
  if (accounts.length > 0) {
    const width = Math.max(...accounts.map((account) => account.email.length));
    lines.push('', `  Demo accounts (password: ${accounts[0]?.password}):`);
    for (const account of accounts) lines.push(`    ${account.email.padEnd(width)}  ${account.description}`);
    const totpSecret = accounts.find((account) => account.totpSecret)?.totpSecret;
    if (totpSecret) {
      lines.push(`  TOTP secret for staff demo accounts: ${totpSecret}, add it to an authenticator app`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
