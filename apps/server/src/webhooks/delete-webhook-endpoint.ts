import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';

/** Removes one of the caller's endpoints with its delivery log; queued deliveries to it are dropped. */
export async function deleteWebhookEndpoint(db: Db, userId: string, endpointId: string): Promise<void> {
  const deleted = await db
    .delete(schema.webhookEndpoints)
    .where(and(eq(schema.webhookEndpoints.id, endpointId), eq(schema.webhookEndpoints.userId, userId)))
    .returning({ id: schema.webhookEndpoints.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
}
