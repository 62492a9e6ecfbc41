import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../build-test-app.js';
import { createTestTrader, type TestTrader } from './create-test-trader.js';

export interface DealParties {
  database: Database;
  app: FastifyInstance;
  /** Creates deals with `seller` as counterparty. */
  buyer: TestTrader;
  seller: TestTrader;
  /** A verified trader who is party to none of the test's deals. */
  outsider: TestTrader;
  close(): Promise<void>;
}

/** The app on a fresh test database with the three traders every deal test needs. */
export async function startDealParties(): Promise<DealParties> {
  const database = await createTestDatabase();
  const testApp = await buildTestApp({ database });
  const { app } = testApp;
  return {
    database,
    app,
    buyer: await createTestTrader(app),
    seller: await createTestTrader(app),
    outsider: await createTestTrader(app),
    close: async () => {
      await testApp.close();
      await database.close();
    },
  };
}
