import { randomUUID } from 'node:crypto';
import type { Database } from '@covenant/db';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { refuseUnstorableText } from './api/refuse-unstorable-text.js';
import { requireAccessDeclarations } from './api/require-access-declarations.js';
import type { AuthLimits } from './auth/auth-deps.js';
import type { SigningKey } from './auth/load-signing-key.js';
import type { ChainRegistry } from './chains/chain-registry.js';
import { type ChatEventHub, createChatEventHub } from './chat/chat-event-hub.js';
import type { Config } from './config.js';
import { createDealEventHub, type DealEventHub } from './deal-room/deal-event-hub.js';
import { scheduleNotificationEmails } from './deal-room/schedule-notification-emails.js';
import { mailboxDir } from './email/create-mailbox-mailer.js';
import { devMailboxRoutes } from './email/dev-mailbox-routes.js';
import type { Mailer } from './email/mailer.js';
import { createEscrowChains } from './escrow/escrow-chains.js';
import { createEscrowEngine, type EscrowEngine } from './escrow/escrow-engine.js';
import { createFilePlatformSigner, type PlatformSigner } from './escrow/platform-signer.js';
import type { FileStore } from './files/file-store.js';
import { loadFileStore } from './files/load-file-store.js';
import type { DeliverWebhookPayload } from './jobs/deliver-webhook-job.js';
import type { JobDefinition } from './jobs/job-definition.js';
import type { JobQueue } from './jobs/start-jobs.js';
import { acceptJsonBodies } from './plugins/accept-json-bodies.js';
import { answerFrameworkErrors } from './plugins/answer-framework-errors.js';
import { createRequestLogController } from './plugins/create-request-log-controller.js';
import { endKeepAliveOnClose } from './plugins/end-keep-alive-on-close.js';
import { forbidApiCaching } from './plugins/forbid-api-caching.js';
import { handleErrors, sendApiError } from './plugins/handle-errors.js';
import type { RateLimiter } from './plugins/rate-limit/rate-limiter.js';
import { registerSecureHeaders } from './plugins/secure-headers.js';
import { serveWebApp, wantsWebApp } from './plugins/serve-web-app.js';
import { apiV1Routes } from './routes/api-v1/index.js';
import { authV1Routes } from './routes/auth-v1/index.js';
import { healthRoutes } from './routes/health.js';

export interface AppDeps {
  config: Config;
  logger: FastifyBaseLogger;
  database: Database;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock: () => Date;
  /** Signs access tokens; loaded once at start (config or DATA_DIR/keys). */
  signingKey: SigningKey;
  /** Background jobs (webhook deliveries) are sent here; main.ts starts the queue before the app. */
  jobs: Pick<JobQueue, 'send'>;
  /** The webhook delivery job as the queue works it (same retry policy when sending). */
  deliverWebhookJob: JobDefinition<DeliverWebhookPayload>;
  /** The chains escrows run on; main.ts starts them (and stops them after the app). */
  chains: ChainRegistry;
  /** The platform's escrow key; by default the key file in DATA_DIR/keys. */
  platformSigner?: PlatformSigner;
  /** Sign-in back-off and auth rate limits; by default those of auth/rate-limits.ts. */
  authLimits?: AuthLimits;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    mailer: Mailer;
    rateLimiter: RateLimiter;
    clock: () => Date;
    signingKey: SigningKey;
    authLimits: AuthLimits;
    jobs: Pick<JobQueue, 'send'>;
    deliverWebhookJob: JobDefinition<DeliverWebhookPayload>;
    chains: ChainRegistry;
    /** The escrow engine: its use cases, and its passes started with the app. */
    escrow: EscrowEngine;
    /** Deal events from the database (deal room streams subscribe here); started with the app. */
    dealEvents: DealEventHub;
    /** Live chat events from the database (chat streams subscribe here); started with the app. */
    chatEvents: ChatEventHub;
    /** The master key of ADR 007, which also seals secrets kept in columns (ADR 018). */
    fileMasterKey: Buffer;
  }
}

/** Bodies above this are refused with 413 before they are read further. */
const bodyLimitBytes = 1024 * 1024;
/** A caller-supplied request id (from a proxy) is kept when it looks like one. */
const requestIdPattern = /^[\w.:-]{1,128}$/;

/** Fastify understands a hop count but its types do not list it; a function says the same. */
function trustProxy(
  setting: Config['trustProxy'],
): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** Builds the whole HTTP application from its dependencies; `main.ts` and tests both call this. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, clock } = deps;
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: createRequestLogController(config.logFormat),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    trustProxy: trustProxy(config.trustProxy),
    bodyLimit: bodyLimitBytes,
    // A client that trickles its request cannot hold a connection forever.
    requestTimeout: 30_000,
    frameworkErrors: answerFrameworkErrors(clock),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', deps.database);
  app.decorate('mailer', deps.mailer);
  app.decorate('rateLimiter', deps.rateLimiter);
  app.decorate('clock', clock);
  app.decorate('signingKey', deps.signingKey);
  app.decorate('authLimits', deps.authLimits ?? {});
  app.decorate('jobs', deps.jobs);
  app.decorate('deliverWebhookJob', deps.deliverWebhookJob);
  app.decorate('chains', deps.chains);
  const fileStore = await loadFileStore({
    dataDir: config.dataDir,
    fileEncryptionKey: config.fileEncryptionKey,
  });
  app.decorate('fileMasterKey', fileStore.masterKey);
  await startEscrowEngine(app, deps, fileStore);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  forbidApiCaching(app);
  startDealRoom(app, deps);
  startLiveChat(app, deps);

  // External plugins.
  await registerSecureHeaders(app, config.publicUrl);
  const webApp = await serveWebApp(app, config.webDistDir);

  // Application plugins.
  acceptJsonBodies(app);
  refuseUnstorableText(app);
  endKeepAliveOnClose(app);
  handleErrors(app, clock);
  app.setNotFoundHandler((request, reply) => {
    if (webApp && wantsWebApp(request)) {
      const { file, status } = webApp.pageOf(request.url);
      return reply.code(status).sendFile(file);
    }
    const path = request.url.split('?')[0];
    return sendApiError(
      reply,
      { statusCode: 404, code: 'NOT_FOUND', message: `No route ${request.method} ${path}`, details: null },
      clock(),
    );
  });

  // Routes. Those of /api/v1 and /auth/v1 must declare their access (ADR 013).
  requireAccessDeclarations(app);
  await app.register(healthRoutes, { database: deps.database });
  await app.register(authV1Routes, { prefix: '/auth/v1' });
  await app.register(apiV1Routes, { prefix: '/api/v1' });
  if (!config.smtpUrl && config.env !== 'production') {
    await app.register(devMailboxRoutes, { dir: mailboxDir(config.dataDir) });
  }
  return app;
}

/** The escrow engine over the app's chains; its passes run from when the app is ready until it closes. */
async function startEscrowEngine(app: FastifyInstance, deps: AppDeps, fileStore: FileStore): Promise<void> {
  const { config } = deps;
  const signer = deps.platformSigner ?? (await createFilePlatformSigner(config.dataDir));
  const engine = createEscrowEngine({
    db: deps.database.db,
    locks: deps.database,
    now: deps.clock,
    logger: deps.logger,
    chains: await createEscrowChains(deps.chains, config.dataDir, deps.logger, deps.database, signer),
    settlementWindowHours: config.escrow.settlementWindowHours,
    feeBumpAfterSeconds: config.escrow.feeBumpAfterSeconds,
    deploymentWaitSeconds: config.escrow.deploymentWaitSeconds,
    webhooks: { db: deps.database.db, now: deps.clock, jobs: deps.jobs, deliverJob: deps.deliverWebhookJob },
    fileStore,
    ...(config.escrow.crashPoint ? { crashAt: config.escrow.crashPoint } : {}),
  });
  app.decorate('escrow', engine);
  app.addHook('onReady', async () => engine.start(config.escrow.pollMs));
  app.addHook('preClose', async () => engine.stop());
}

/**
 * The deal room's background parts live as long as the app: the database listener behind the live
 * streams, and the outbox that e-mails every notification. Streams end before the server closes
 * (an open stream would hold the close), the e-mail pass finishes before the database does.
 */
function startDealRoom(app: FastifyInstance, deps: AppDeps): void {
  const dealEvents = createDealEventHub(deps.database, deps.logger);
  app.decorate('dealEvents', dealEvents);
  const notificationEmails = scheduleNotificationEmails({
    database: deps.database,
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    now: deps.clock,
    hub: dealEvents,
    logger: deps.logger,
  });
  app.addHook('onReady', async () => {
    await dealEvents.start();
    notificationEmails.start();
  });
  app.addHook('preClose', async () => {
    await dealEvents.stop();
  });
  app.addHook('onClose', async () => {
    await notificationEmails.stop();
  });
}

/** The live chat's database listener lives as long as the app; its streams end before the server closes. */
function startLiveChat(app: FastifyInstance, deps: AppDeps): void {
  const chatEvents = createChatEventHub(deps.database, deps.logger);
  app.decorate('chatEvents', chatEvents);
  app.addHook('onReady', async () => chatEvents.start());
  app.addHook('preClose', async () => chatEvents.stop());
}
