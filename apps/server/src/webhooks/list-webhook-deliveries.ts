import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';

export interface WebhookDeliveryView {
  id: string;
  event: string;
  status: schema.WebhookDeliveryStatus;
  attempt_count: number;
  created_at: string;
  last_attempt_at: string | null;
  attempts: Array<{
    attempted_at: string;
    response_status: number | null;
    error: string | null;
    duration_ms: number;
  }>;
}

/** The delivery log of one of the caller's endpoints, newest first, with every attempt. */
export async function listWebhookDeliveries(
  db: Db,
  userId: string,
  endpointId: string,
  limit: number,
): Promise<WebhookDeliveryView[]> {
  const [endpoint] = await db
    .select({ id: schema.webhookEndpoints.id })
    .from(schema.webhookEndpoints)
    .where(and(eq(schema.webhookEndpoints.id, endpointId), eq(schema.webhookEndpoints.userId, userId)));
  if (!endpoint) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
  const deliveries = await db
    .select()
    .from(schema.webhookDeliveries)
    .where(eq(schema.webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(schema.webhookDeliveries.createdAt))
    .limit(limit);
  const attempts =
    deliveries.length === 0
      ? []
      : await db
          .select()
          .from(schema.webhookAttempts)
          .where(
            inArray(
              schema.webhookAttempts.deliveryId,
              deliveries.map((delivery) => delivery.id),
            ),
          )
          .orderBy(asc(schema.webhookAttempts.attemptedAt));
  return deliveries.map((delivery) => ({
    id: delivery.id,
    event: delivery.event,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    created_at: delivery.createdAt.toISOString(),
    last_attempt_at: delivery.lastAttemptAt?.toISOString() ?? null,
    attempts: attempts
      .filter((attempt) => attempt.deliveryId === delivery.id)
      .map((attempt) => ({
        attempted_at: attempt.attemptedAt.toISOString(),
        response_status: attempt.responseStatus,
        error: attempt.error,
        duration_ms: attempt.durationMs,
      })),
  }));
}
