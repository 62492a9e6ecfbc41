import { join } from 'node:path';
import { openDatabase } from '@covenant/db';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl
    ? { engine: 'postgres', url: config.databaseUrl }
    : { engine: 'pglite', dataDir: join(config.dataDir, 'pglite') },
);
const app = await buildApp({ config, database });
await app.listen({ port: config.port, host: config.host });
