import type { schema } from '@covenant/db';

export interface WebhookEndpointView {
  id: string;
  url: string;
  events: string[];
  created_at: string;
}

export function presentWebhookEndpoint(
  row: typeof schema.webhookEndpoints.$inferSelect,
): WebhookEndpointView {
  return { id: row.id, url: row.url, events: row.events, created_at: row.createdAt.toISOString() };
}
