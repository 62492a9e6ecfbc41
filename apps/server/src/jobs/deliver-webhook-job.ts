import { type Db, schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { deliverWebhook, giveUpWebhookDelivery } from '../webhooks/deliver-webhook.js';
import type { JobDefinition } from './job-definition.js';

const payload = z.object({
  delivery_id: z.uuid(),
  /** Attempts made before this run of the job (a replay starts a new series of retries). */
  attempts_before: z.number().int().min(0),
});
export type DeliverWebhookPayload = z.infer<typeof payload>;

export interface DeliverWebhookJobOptions {
  db: Db;
  now: () => Date;
  allowPrivateTargets: boolean;
  /** Retries after the first attempt; with backoff the waits are delay, 2×delay, 4×delay, … */
  retryLimit?: number;
  retryDelaySeconds?: number;
}

/**
 * Sends one webhook delivery. A failed attempt throws, so the queue retries it with exponential
 * backoff; after the last one the delivery is marked failed.
 */
export function createDeliverWebhookJob(
  options: DeliverWebhookJobOptions,
): JobDefinition<DeliverWebhookPayload> {
  const retryLimit = options.retryLimit ?? 8;
  return {
    name: 'deliver-webhook',
    payload,
    retry: { limit: retryLimit, delaySeconds: options.retryDelaySeconds ?? 30, backoff: true },
    handle: async (data) => {
      const outcome = await deliverWebhook(options, data.delivery_id);
      if (outcome !== 'failed') return;
      const [delivery] = await options.db
        .select({ attemptCount: schema.webhookDeliveries.attemptCount })
        .from(schema.webhookDeliveries)
        .where(eq(schema.webhookDeliveries.id, data.delivery_id));
      if ((delivery?.attemptCount ?? 0) - data.attempts_before > retryLimit) {
        await giveUpWebhookDelivery(options.db, data.delivery_id);
        return;
      }
      throw new Error(`webhook delivery ${data.delivery_id} failed; retrying`);
    },
  };
}
