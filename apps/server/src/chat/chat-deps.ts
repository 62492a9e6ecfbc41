import type { Db } from '@covenant/db';
import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../email/mailer.js';
import type { RateLimiter } from '../plugins/rate-limit/rate-limiter.js';

interface Rule {
  limit: number;
  windowSeconds: number;
}

export interface ChatRateLimits {
  /** New conversations per client IP. */
  openPerIp: Rule;
  /** New conversations per visitor address. */
  openPerEmail: Rule;
  /** Messages a visitor writes in one conversation. */
  messagesPerConversation: Rule;
}

/** Enough for a visitor with a real question and follow-ups, too few to flood the console or a mailbox. */
export const defaultChatRateLimits: ChatRateLimits = {
  openPerIp: { limit: 10, windowSeconds: 3600 },
  openPerEmail: { limit: 5, windowSeconds: 3600 },
  messagesPerConversation: { limit: 30, windowSeconds: 300 },
};

/**
 * Staff count as online while one of their console streams checked in within this many seconds
 * (the streams check in at each 15-second keepalive; a replica that dies stops refreshing its rows).
 */
export const staffPresenceWindowSeconds = 45;

export interface ChatDeps {
  db: Db;
  mailer: Mailer;
  rateLimiter: Pick<RateLimiter, 'consume'>;
  rateLimits: ChatRateLimits;
  now: () => Date;
  presenceWindowSeconds: number;
}

export function createChatDeps(app: FastifyInstance): ChatDeps {
  return {
    db: app.database.db,
    mailer: app.mailer,
    rateLimiter: app.rateLimiter,
    rateLimits: defaultChatRateLimits,
    now: app.clock,
    presenceWindowSeconds: staffPresenceWindowSeconds,
  };
}
