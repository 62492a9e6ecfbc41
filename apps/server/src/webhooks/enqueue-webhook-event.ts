import { randomUUID } from 'node:crypto';
import { type Db, schema } from '@covenant/db';
import { inArray } from 'drizzle-orm';
import type { DeliverWebhookPayload } from '../jobs/deliver-webhook-job.js';
import type { JobDefinition } from '../jobs/job-definition.js';
import type { JobQueue } from '../jobs/start-jobs.js';
import type { WebhookEvent } from './webhook-events.js';

export interface EnqueueWebhookDeps {
  db: Db;
  now: () => Date;
  jobs: Pick<JobQueue, 'send'>;
  deliverJob: JobDefinition<DeliverWebhookPayload>;
}

/**
 * Records one delivery of an event for every endpoint of `userIds` subscribed to it and queues
 * each; the body is fixed here so every attempt and replay sends the same bytes.
 */
export async function enqueueWebhookEvent(
  deps: EnqueueWebhookDeps,
  userIds: string[],
  event: WebhookEvent,
  data: Record<string, unknown>,
): Promise<void> {
  const endpoints = (
    await deps.db
      .select()
      .from(schema.webhookEndpoints)
      .where(inArray(schema.webhookEndpoints.userId, userIds))
  ).filter((endpoint) => endpoint.events.includes(event));
  if (endpoints.length === 0) return;
  const now = deps.now();
  const body = JSON.stringify({ id: randomUUID(), type: event, created_at: now.toISOString(), data });
  const deliveries = await deps.db
    .insert(schema.webhookDeliveries)
    .values(endpoints.map((endpoint) => ({ endpointId: endpoint.id, event, body, createdAt: now })))
    .returning({ id: schema.webhookDeliveries.id });
  for (const delivery of deliveries) {
    await deps.jobs.send(deps.deliverJob, { delivery_id: delivery.id, attempts_before: 0 });
  }
}
