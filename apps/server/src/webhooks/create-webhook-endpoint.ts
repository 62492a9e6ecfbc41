import { randomBytes } from 'node:crypto';
import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { count, eq } from 'drizzle-orm';
import { checkWebhookTarget } from './check-webhook-target.js';
import { presentWebhookEndpoint, type WebhookEndpointView } from './webhook-endpoint-view.js';
import type { WebhookEvent } from './webhook-events.js';

const maxEndpointsPerUser = 20;

/** Registers an endpoint for some events; the signing secret is in this answer only. */
export async function createWebhookEndpoint(
  deps: { db: Db; now: () => Date; allowPrivateTargets: boolean },
  userId: string,
  input: { url: string; events: WebhookEvent[] },
): Promise<WebhookEndpointView & { secret: string }> {
  await checkWebhookTarget(input.url, { allowPrivate: deps.allowPrivateTargets });
  const [existing] = await deps.db
    .select({ n: count() })
    .from(schema.webhookEndpoints)
    .where(eq(schema.webhookEndpoints.userId, userId));
  if ((existing?.n ?? 0) >= maxEndpointsPerUser) {
    throw new AppError('CONFLICT', `At most ${maxEndpointsPerUser} webhook endpoints; delete one first`);
  }
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const [row] = await deps.db
    .insert(schema.webhookEndpoints)
    .values({ userId, url: input.url, events: [...new Set(input.events)], secret, createdAt: deps.now() })
    .returning();
  return { ...presentWebhookEndpoint(row!), secret };
}
