import { configDefaults, defineConfig } from 'vitest/config';

// Four projects: pure unit tests, escrow on local chains, the web app's component tests (jsdom), and integration tests that
// talk to a real database (PGlite by default; TEST_DB=postgres selects the local PostgreSQL server).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/domain/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          testTimeout: 20_000,
        },
      },
      {
        // Escrow on the local chains: the engine, the devnets and the contracts, against a real anvil.
        test: {
          name: 'chain',
          include: [
            'packages/escrow/src/**/*.test.ts',
            'packages/devnets/src/**/*.test.ts',
            'contracts/test/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/src/**/*.test.ts', 'packages/db/src/**/*.test.ts'],
          // Two server replicas need PostgreSQL (PGlite serves one process): that file runs in the
          // PostgreSQL pass only (TEST_DB=postgres, `npm run test:pg`).
          exclude:
            process.env.TEST_DB === 'postgres'
              ? configDefaults.exclude
              : [...configDefaults.exclude, 'apps/server/src/two-replicas.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          // One worker runs the files one after another and keeps the modules it has loaded: the
          // server and its dependencies are imported once per pass rather than once per file (no
          // file mocks modules or changes globals, and each opens its own database).
          isolate: false,
        },
      },
    ],
  },
});
