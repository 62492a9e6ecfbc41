export * from './chain-adapter.js';
export * from './escrow-chain-adapter.js';
export * from './late-deposits.js';
export * from './leg-state.js';
export * from './pending-entries.js';
export * from './reconcile.js';
export * from './settlement-plan.js';
export * from './types.js';
