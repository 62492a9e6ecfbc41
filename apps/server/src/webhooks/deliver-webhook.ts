import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { type Db, schema } from '@covenant/db';
import { eq, sql } from 'drizzle-orm';
import { checkWebhookTarget } from './check-webhook-target.js';
import { signWebhook } from './sign-webhook.js';

const timeoutMs = 10_000;

export interface DeliverWebhookDeps {
  db: Db;
  now: () => Date;
  allowPrivateTargets: boolean;
}

export type AttemptOutcome = 'succeeded' | 'failed' | 'gone';

/**
 * One attempt of a delivery: checks the target again (DNS may have changed), POSTs the stored body
 * signed with a fresh timestamp, connecting to exactly the address that was checked, and logs the
 * attempt. A 2xx answer is success. 'gone' when the delivery or its endpoint was deleted meanwhile.
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
    const target = await checkWebhookTarget(endpoint.url, deps.allowPrivateTargets);
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
    error = (caught as Error).message;
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
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        timeout: timeoutMs,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
