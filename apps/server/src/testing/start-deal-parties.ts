import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
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
  /** One request to the app with `token` as the Bearer. */
  call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    token: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** A draft deal created by `buyer` with `seller` (0.5 WBTC for 30 000 USDC, both on Ethereum); its id. */
  newDeal(): Promise<string>;
  /** Puts a deal straight into `status` (the routes that lead there are tested on their own). */
  setStatus(dealId: string, status: schema.DealStatus): Promise<void>;
  close(): Promise<void>;
}

/** The app on a fresh test database with the three traders every deal test needs. */
export async function startDealParties(): Promise<DealParties> {
  const database = await createTestDatabase();
  const testApp = await buildTestApp({ database });
  const { app } = testApp;
  const buyer = await createTestTrader(app);
  const seller = await createTestTrader(app);
  const call: DealParties['call'] = (method, url, token, payload) =>
    app.inject({
      method,
      url,
      payload: payload as Record<string, unknown> | undefined,
      headers: { authorization: `Bearer ${token}` },
    });
  return {
    database,
    app,
    buyer,
    seller,
    outsider: await createTestTrader(app),
    call,
    newDeal: async () => {
      const response = await call('POST', '/api/v1/deals', buyer.token, {
        asset_chain: 'ETH',
        asset_symbol: 'WBTC',
        asset_amount: '50000000',
        stable_chain: 'ETH',
        stable_symbol: 'USDC',
        stable_amount: '30000000000',
        counterparty_id: seller.id,
      });
      if (response.statusCode !== 201) throw new Error(`deal not created: ${response.body}`);
      return response.json().id;
    },
    setStatus: async (dealId, status) => {
      await database.db.update(schema.deals).set({ status }).where(eq(schema.deals.id, dealId));
    },
    close: async () => {
      await testApp.close();
      await database.close();
    },
  };
}
