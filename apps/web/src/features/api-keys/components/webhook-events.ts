// The events a webhook can subscribe to, as the API reference documents them.
export const webhookEvents = ['deal.created', 'escrow.funded', 'deal.completed'] as const;
