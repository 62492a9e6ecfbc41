export { buildApp } from './app.js';
export { loadConfig } from './config.js';
