// Every table of the product. Each area keeps its tables in its own file and is re-exported here,
// so drizzle-kit and the typed database handle see one schema.
export * from './api-access.js';
export * from './auth.js';
export * from './chat.js';
export * from './deal-audit.js';
export * from './deal-lifecycle.js';
export * from './deals.js';
export * from './escrow.js';
export * from './files.js';
export * from './kyc.js';
export * from './meetings.js';
export * from './rate-limits.js';
export * from './support.js';
export * from './travel-rule.js';
export * from './wallets.js';
export * from './webhooks.js';
