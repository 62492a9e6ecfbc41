export * from './database.js';
export * from './prepare-select.js';
export * as schema from './schema/index.js';
