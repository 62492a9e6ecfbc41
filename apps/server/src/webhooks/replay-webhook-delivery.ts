import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import type { DeliverWebhookPayload } from '../jobs/deliver-webhook-job.js';
import type { JobDefinition } from '../jobs/job-definition.js';
import type { JobQueue } from '../jobs/start-jobs.js';

/** Sends one of the caller's deliveries again (same body, fresh signature), with a new series of retries. */
export async function replayWebhookDelivery(
  deps: { db: Db; jobs: Pick<JobQueue, 'send'>; deliverJob: JobDefinition<DeliverWebhookPayload> },
  userId: string,
  endpointId: string,
  deliveryId: string,
): Promise<{ id: string; status: 'pending' }> {
  const [row] = await deps.db
    .select({ attemptCount: schema.webhookDeliveries.attemptCount })
    .from(schema.webhookDeliveries)
    .innerJoin(schema.webhookEndpoints, eq(schema.webhookEndpoints.id, schema.webhookDeliveries.endpointId))
    .where(
      and(
        eq(schema.webhookDeliveries.id, deliveryId),
        eq(schema.webhookDeliveries.endpointId, endpointId),
        eq(schema.webhookEndpoints.userId, userId),
      ),
    );
  if (!row) throw new AppError('NOT_FOUND', 'Webhook delivery not found');
  await deps.db
    .update(schema.webhookDeliveries)
    .set({ status: 'pending' })
    .where(eq(schema.webhookDeliveries.id, deliveryId));
  await deps.jobs.send(deps.deliverJob, { delivery_id: deliveryId, attempts_before: row.attemptCount });
  return { id: deliveryId, status: 'pending' };
}
