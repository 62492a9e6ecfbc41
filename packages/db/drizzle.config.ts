import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @covenant/db` writes a new SQL migration from the schema diff.
// Migrations are committed and applied at server start on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
});
