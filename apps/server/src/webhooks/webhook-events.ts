/** The events a webhook endpoint can subscribe to (spec §7). */
export const webhookEvents = ['deal.created', 'escrow.funded', 'deal.completed'] as const;
export type WebhookEvent = (typeof webhookEvents)[number];
