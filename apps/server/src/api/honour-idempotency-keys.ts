import { createHash } from 'node:crypto';
import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSealedText, openSealedText, sealText } from '../files/seal-text.js';
import type { Principal } from './principal.js';

const keyPattern = /^[\x21-\x7e]{1,255}$/;

interface HeldKey {
  userId: string;
  key: string;
}

/**
 * Claims the request's `Idempotency-Key` for `body`. Returns true when the answer was already sent
 * (a replay); the handler must then stop. Throws 409 for the same key with another request.
 */
export type ClaimIdempotencyKey = (
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
) => Promise<boolean>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * For routes that read their own body (multipart): call with what was read, before acting on it.
     * Every other POST is claimed before its handler runs.
     */
    claimIdempotencyKey: ClaimIdempotencyKey;
  }
}

/**
 * `Idempotency-Key` on POST: the first request with a key runs and its answer is stored; a retry with
 * the same key and the same request gets that answer again (marked `Idempotent-Replayed: true`); the
 * same key with another request is refused with 409, as is a retry while the first still runs.
 * Server errors are not stored, so a retry after one runs again. Rows are pruned after 24 hours.
 *
 * The stored answer is sealed with the file master key (ADR 007), bound to its user and key: answers
 * hold secrets shown once (a new API key, a webhook's signing secret), and the replay must show the
 * same secret again, so it is kept encrypted rather than hashed or left out (ASVS 8.1.2). Every
 * answer is sealed, not only those two, so a new route that returns a secret needs no care here.
 */
export function honourIdempotencyKeys(
  app: FastifyInstance,
  db: Db,
  principalOf: (request: FastifyRequest) => Principal,
  masterKey: Buffer,
): void {
  const contextOf = (userId: string, key: string) => `idempotency:${userId}:${key}`;
  const held = new WeakMap<FastifyRequest, HeldKey>();

  // Rows written before answers were sealed are replayed as they are until the 24-hour prune.
  const openStoredBody = (body: string | null, context: string) => {
    if (body === null) return undefined;
    if (!isSealedText(body)) return body;
    try {
      return openSealedText(masterKey, body, context);
    } catch {
      // Sealed under another master key (FILE_ENCRYPTION_KEY changed within the day): not a server fault.
      throw new AppError('CONFLICT', 'The first answer to this Idempotency-Key can no longer be replayed');
    }
  };

  /** Only a POST that sends the header has a key to claim. */
  const mayClaim = (request: FastifyRequest) =>
    request.method === 'POST' && request.headers['idempotency-key'] !== undefined;

  const claim: ClaimIdempotencyKey = async (request, reply, body) => {
    const header = request.headers['idempotency-key'];
    if (!mayClaim(request) || header === undefined) return false;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !keyPattern.test(key)) {
      throw new AppError('VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 printable characters');
    }
    const { userId } = principalOf(request);
    const requestHash = createHash('sha256')
      .update(JSON.stringify([request.method, request.url, userId, body ?? null]))
      .digest('hex');
    const inserted = await db
      .insert(schema.idempotencyKeys)
      .values({ userId, key, requestHash })
      .onConflictDoNothing()
      .returning({ key: schema.idempotencyKeys.key });
    if (inserted.length > 0) {
      held.set(request, { userId, key });
      return false;
    }
    const [first] = await db
      .select()
      .from(schema.idempotencyKeys)
      .where(and(eq(schema.idempotencyKeys.userId, userId), eq(schema.idempotencyKeys.key, key)));
    if (!first) throw new AppError('CONFLICT', 'The Idempotency-Key was released; retry the request');
    if (first.requestHash !== requestHash) {
      throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request');
    }
    if (first.statusCode === null) {
      throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still being processed');
    }
    reply.header('Idempotent-Replayed', 'true');
    for (const [name, value] of Object.entries(first.responseHeaders ?? {})) reply.header(name, value);
    await reply.code(first.statusCode).send(openStoredBody(first.responseBody, contextOf(userId, key)));
    return true;
  };
  app.decorate('claimIdempotencyKey', claim);

  app.addHook('preHandler', (request, reply, done) => {
    // A multipart body is still unread here; its route claims the key once it has read the parts.
    // Only a POST with the header waits on the database; every other request goes on at once.
    if (request.isMultipart?.() || !mayClaim(request)) return done();
    claim(request, reply, request.body).then((replayed) => {
      // A replayed answer is already sent: the route must not run.
      if (!replayed) done();
    }, done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const holding = held.get(request);
    if (!holding) return done(null, payload);
    held.delete(request);
    store(holding, reply, payload).then(() => done(null, payload), done);
  });

  const store = async (holding: HeldKey, reply: FastifyReply, payload: unknown) => {
    const where = and(
      eq(schema.idempotencyKeys.userId, holding.userId),
      eq(schema.idempotencyKeys.key, holding.key),
    );
    if (reply.statusCode >= 500) {
      await db.delete(schema.idempotencyKeys).where(where);
      return;
    }
    const contentType = reply.getHeader('content-type');
    await db
      .update(schema.idempotencyKeys)
      .set({
        statusCode: reply.statusCode,
        responseBody:
          typeof payload === 'string'
            ? sealText(masterKey, payload, contextOf(holding.userId, holding.key))
            : null,
        responseHeaders: typeof contentType === 'string' ? { 'content-type': contentType } : {},
      })
      .where(where);
  };
}
