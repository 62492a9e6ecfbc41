import { type Db, schema } from '@covenant/db';
import { desc, eq } from 'drizzle-orm';
import { presentWebhookEndpoint, type WebhookEndpointView } from './webhook-endpoint-view.js';

/** The caller's endpoints, newest first, without their secrets. */
export async function listWebhookEndpoints(db: Db, userId: string): Promise<WebhookEndpointView[]> {
  const rows = await db
    .select()
    .from(schema.webhookEndpoints)
    .where(eq(schema.webhookEndpoints.userId, userId))
    .orderBy(desc(schema.webhookEndpoints.createdAt));
  return rows.map(presentWebhookEndpoint);
}
