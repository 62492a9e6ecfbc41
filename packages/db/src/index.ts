export * from './database.js';
export * as schema from './schema/index.js';
