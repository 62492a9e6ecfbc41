import type { Db } from '@covenant/db';
import { chatAttachmentRules } from '@covenant/domain';
import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../email/mailer.js';
import type { FileStore } from '../files/file-store.js';
import { loadFileStore } from '../files/load-file-store.js';
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
  /** Files visitors send from one network (IPv4 address or IPv6 /64), across their conversations. */
  filesPerNetwork: Rule;
  /** Files in one conversation, from both sides, ever. */
  filesPerConversation: number;
}

/** Enough for a visitor with a real question and follow-ups, too few to flood the console or a mailbox. */
export const defaultChatRateLimits: ChatRateLimits = {
  openPerIp: { limit: 10, windowSeconds: 3600 },
  openPerEmail: { limit: 5, windowSeconds: 3600 },
  messagesPerConversation: { limit: 30, windowSeconds: 300 },
  // At most 200 MB an hour from one network, however many conversations it opens.
  filesPerNetwork: { limit: 20, windowSeconds: 3600 },
  filesPerConversation: chatAttachmentRules.maxPerConversation,
};

/**
 * Staff count as online while one of their console streams checked in within this many seconds
 * (the streams check in at each 15-second keepalive; a replica that dies stops refreshing its rows).
 */
export const staffPresenceWindowSeconds = 45;

export interface ChatDeps {
  db: Db;
  mailer: Mailer;
  /** Where attachments are kept encrypted (purpose 'chat_attachment'), as dispute evidence is. */
  fileStore: FileStore;
  rateLimiter: Pick<RateLimiter, 'consume'>;
  rateLimits: ChatRateLimits;
  now: () => Date;
  presenceWindowSeconds: number;
}

/** Gathers the chat's dependencies from the app; the file store's master key is loaded here, once. */
export async function createChatDeps(app: FastifyInstance): Promise<ChatDeps> {
  const { config } = app;
  return {
    db: app.database.db,
    mailer: app.mailer,
    fileStore: await loadFileStore({ dataDir: config.dataDir, fileEncryptionKey: config.fileEncryptionKey }),
    rateLimiter: app.rateLimiter,
    rateLimits: defaultChatRateLimits,
    now: app.clock,
    presenceWindowSeconds: staffPresenceWindowSeconds,
  };
}
