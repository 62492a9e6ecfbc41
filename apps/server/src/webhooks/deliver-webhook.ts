import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq, sql } from 'drizzle-orm';
import { checkWebhookTarget, type WebhookTargetPolicy } from './check-webhook-target.js';
import { signWebhook } from './sign-webhook.js';

const timeoutMs = 10_000;

export interface DeliverWebhookDeps {
  db: Db;
  now: () => Date;
  allowPrivateTargets: boolean;
  /** The resolver and this machine's addresses; the system's by default (tests hand in others). */
  resolveHost?: WebhookTargetPolicy['resolveHost'];
  ownAddresses?: WebhookTargetPolicy['ownAddresses'];
}

export type AttemptOutcome = 'succeeded' | 'failed' | 'gone';

/**
 * One attempt of a delivery: checks the target again (DNS and this machine's addresses may have
 * changed), POSTs the stored body signed with a fresh timestamp, connecting to exactly the address
 * that was checked, and logs the attempt. A 2xx answer is success; a redirect is a failed attempt,
 * never followed. The log keeps the target's status and the duration, and the error only as one of
 * a few fixed phrases, so it cannot be used to read other hosts or the server's network.
 * 'gone' when the delivery or its endpoint was deleted meanwhile.
 */
export async function deliverWebhook(deps: DeliverWebhookDeps, deliveryId: string): Promise<AttemptOutcome> {
  const [row] = await deps.db
    .select({ delivery: schema.webhookDeliveries, endpoint: schema.webhookEndpoints })
    .from(schema.webhookDeliveries)
    .innerJoin(schema.webhookEndpoints, eq(schema.webhookEndpoints.id, schema.webhookDeliveries.endpointId))
    .where(eq(schema.webhookDeliveries.id, deliveryId));
  if (!row) return 'gone';
  const { delivery, endpoint } = row;
  const started = deps.now();
  let responseStatus: number | null = null;
  let error: string | null = null;
  try {
    const target = await checkWebhookTarget(endpoint.url, {
      allowPrivate: deps.allowPrivateTargets,
      resolveHost: deps.resolveHost,
      ownAddresses: deps.ownAddresses,
    });
    const signature = signWebhook(endpoint.secret, Math.floor(started.getTime() / 1000), delivery.body);
    responseStatus = await post(target.url, target.address, target.family, delivery.body, {
      'content-type': 'application/json',
      'user-agent': 'Covenant-Webhooks/1',
      'covenant-signature': signature,
      'covenant-event': delivery.event,
      'covenant-delivery': delivery.id,
    });
    if (responseStatus < 200 || responseStatus >= 300) error = `HTTP ${responseStatus}`;
  } catch (caught) {
    error = describeFailure(caught);
  }
  const finished = deps.now();
  const succeeded = error === null;
  await deps.db.transaction(async (tx) => {
    await tx.insert(schema.webhookAttempts).values({
      deliveryId,
      attemptedAt: started,
      responseStatus,
      error,
      durationMs: Math.max(0, finished.getTime() - started.getTime()),
    });
    await tx
      .update(schema.webhookDeliveries)
      .set({
        attemptCount: sql`${schema.webhookDeliveries.attemptCount} + 1`,
        lastAttemptAt: started,
        ...(succeeded ? { status: 'succeeded' as const } : {}),
      })
      .where(eq(schema.webhookDeliveries.id, deliveryId));
  });
  return succeeded ? 'succeeded' : 'failed';
}

/** Marks a delivery failed for good once its retries are used up. */
export async function giveUpWebhookDelivery(db: Db, deliveryId: string): Promise<void> {
  await db
    .update(schema.webhookDeliveries)
    .set({ status: 'failed' })
    .where(eq(schema.webhookDeliveries.id, deliveryId));
}

/** The attempt's own deadline passed; its message is one of the log's fixed phrases. */
class DeadlineError extends Error {}

/** What the attempt log says about a failure: the refusal of the target, or a fixed phrase. */
function describeFailure(caught: unknown): string {
  if (caught instanceof AppError) return caught.message;
  if (caught instanceof DeadlineError) return caught.message;
  const code = (caught as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection closed before an answer';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'host unreachable';
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SIGNATURE|SELF_SIGNED/.test(code)) {
    return 'TLS handshake failed';
  }
  return 'could not deliver';
}

/**
 * POSTs to `address` (the checked one) and settles with the answer's status as soon as its head
 * arrives: the body is not read, redirects are not followed, and the whole exchange has one
 * deadline, so a target that trickles its answer cannot hold the attempt.
 */
function post(
  url: URL,
  address: string,
  family: 4 | 6,
  body: string,
  headers: Record<string, string>,
): Promise<number> {
  // Connect to the address that passed the check, whatever DNS says by now.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinned,
      agent: false,
    });
    const deadline = setTimeout(
      () => outgoing.destroy(new DeadlineError(`no answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    outgoing.on('response', (response) => {
      clearTimeout(deadline);
      resolve(response.statusCode ?? 0);
      outgoing.destroy();
    });
    outgoing.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    outgoing.end(body);
  });
}
