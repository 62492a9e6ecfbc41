import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import type { GoTrueClient } from '@supabase/auth-js';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { AuthLimits } from '../../auth/auth-deps.js';
import { buildTestApp } from '../../build-test-app.js';
import { createSmtpMailer } from '../../email/create-smtp-mailer.js';
import type { ParsedEmail } from '../../email/parse-email.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../email/start-test-smtp-server.js';
import { createDatabaseRateLimiter } from '../../plugins/rate-limit/create-database-rate-limiter.js';
import { createRedisRateLimiter } from '../../plugins/rate-limit/create-redis-rate-limiter.js';
import type { RateLimiter } from '../../plugins/rate-limit/rate-limiter.js';
import { memoryAuthClient } from '../../testing/memory-auth-client.js';

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The origin e-mail links are built on; tests send those requests to the real server instead. */
export const testPublicUrl = 'http://covenant.test';

export interface AuthTestServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  app: FastifyInstance;
  database: Database;
  rateLimiter: RateLimiter;
  smtp: TestSmtpServer;
  /** The server's clock, which `advanceClock` moves forward (the test's own clock stays). */
  now(): Date;
  advanceClock(seconds: number): void;
  /** A fresh `@supabase/auth-js` client with its own in-memory storage. */
  /** The official auth client against this server, its session in memory (pkce: the code flow). */
  createClient(options?: { flowType?: 'implicit' | 'pkce' }): GoTrueClient;
  /** The next e-mail to `to` whose subject contains `subject`, among those not yet taken. */
  takeEmail(to: string, subject: string): Promise<ParsedEmail>;
  /** The verification link in `email`, pointed at the test server. */
  linkIn(email: ParsedEmail): URL;
  close(): Promise<void>;
}

/**
 * The whole app on a loopback port with a fresh database and a real SMTP server catching its e-mail.
 * `env` overrides settings; `authLimits` the auth limits and the back-off's sleep; `rateLimiter`
 * picks where counts are kept (Redis: under a prefix of this server's own).
 */
export async function startAuthTestServer(
  options: { env?: Record<string, string>; authLimits?: AuthLimits; rateLimiter?: 'database' | 'redis' } = {},
): Promise<AuthTestServer> {
  const smtp = await startTestSmtpServer();
  const database = await createTestDatabase();
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const mailer = createSmtpMailer(smtp.url, 'Covenant <no-reply@covenant.test>');
  const rateLimiter =
    options.rateLimiter === 'redis'
      ? createRedisRateLimiter(redisUrl, clock, pino({ level: 'silent' }), `covenant-test:${randomUUID()}:`)
      : createDatabaseRateLimiter(database.db, clock);
  const { app, close } = await buildTestApp({
    database,
    env: { PUBLIC_URL: testPublicUrl, ...options.env },
    clock,
    mailer,
    rateLimiter,
    ...(options.authLimits ? { authLimits: options.authLimits } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const taken = new Set<ParsedEmail>();

  return {
    origin,
    app,
    database,
    rateLimiter,
    smtp,
    now: clock,
    advanceClock: (seconds) => {
      offsetMs += seconds * 1000;
    },
    createClient: (options) => memoryAuthClient(origin, options),
    takeEmail: async (to, subject) => {
      const email = await smtp.waitForMessage(
        (message) => !taken.has(message) && message.to.includes(to) && message.subject.includes(subject),
      );
      taken.add(email);
      return email;
    },
    linkIn: (email) => {
      const match = /https?:\/\/\S+\/auth\/v1\/verify\?[^\s"<>]+/.exec(email.text);
      if (!match) throw new Error(`no verification link in "${email.subject}"`);
      const link = new URL(match[0]);
      return new URL(`${link.pathname}${link.search}`, origin);
    },
    close: async () => {
      await close();
      await rateLimiter.close();
      await database.close();
      await smtp.close();
    },
  };
}
