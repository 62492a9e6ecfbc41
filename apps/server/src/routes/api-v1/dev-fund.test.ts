import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../build-test-app.js';
import { escrowSteps } from '../../testing/escrow-steps.js';
import { type EscrowDevnet, startEscrowDevnet } from '../../testing/start-escrow-devnet.js';

let devnet: EscrowDevnet;
const steps = escrowSteps(() => devnet);
const anotherHost = '192.0.2.50';

beforeAll(async () => {
  devnet = await startEscrowDevnet();
});
afterAll(async () => {
  await devnet?.close();
});

function fund(
  body: { deal_id: string; leg: 'asset' | 'stable' },
  token?: string,
  remoteAddress = '127.0.0.1',
) {
  return devnet.app.inject({
    method: 'POST',
    url: '/api/v1/dev/fund',
    remoteAddress,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: body,
  });
}

const terms = {
  assetSymbol: 'ETH',
  assetAmount: 10n ** 18n,
  stableSymbol: 'USDC',
  stableAmount: 3_000_000_000n,
};

describe('POST /api/v1/dev/fund', () => {
  it("pays the caller's leg from the devnet wallet for a request from this machine", async () => {
    const { dealId, deposit } = await steps.openedEscrow(terms);
    const response = await fund({ deal_id: dealId, leg: 'stable' }, devnet.buyer.token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      leg: 'stable',
      deposit_address: deposit.stable,
      amount: '3000000000',
    });
    // 3,000 USDC = 3,000 × 10^6 base units.
    expect(await devnet.balance('USDC', deposit.stable)).toBe(3_000_000_000n);
  });

  it('is an unknown route on another host to anonymous callers, the parties and staff without a second factor', async () => {
    const { dealId, deposit } = await steps.openedEscrow(terms);
    const unknown = await devnet.app.inject({
      method: 'POST',
      url: '/api/v1/dev/nothing',
      remoteAddress: anotherHost,
    });
    const [admin] = await devnet.database.db
      .insert(schema.userRoles)
      .values({ userId: devnet.seller.id, role: 'admin' })
      .returning();
    try {
      for (const [caller, token] of [
        ['anonymous', undefined],
        ['the buyer', devnet.buyer.token],
        ['the seller, an admin without a second factor', devnet.seller.token],
      ] as const) {
        const response = await fund({ deal_id: dealId, leg: 'asset' }, token, anotherHost);
        expect(response.statusCode, caller).toBe(404);
        expect(response.json().error, caller).toEqual({
          ...unknown.json().error,
          message: 'No route POST /api/v1/dev/fund',
          timestamp: expect.any(String),
        });
      }
      expect(await devnet.balance('ETH', deposit.asset)).toBe(0n);
    } finally {
      await devnet.database.db.delete(schema.userRoles).where(eq(schema.userRoles.userId, admin!.userId));
    }
  });

  it('answers an admin whose session passed a second factor, from another host', async () => {
    const { dealId, deposit } = await steps.openedEscrow(terms);
    await devnet.database.db.insert(schema.userRoles).values({ userId: devnet.seller.id, role: 'admin' });
    await devnet.database.db
      .update(schema.sessions)
      .set({ aal: 'aal2' })
      .where(eq(schema.sessions.userId, devnet.seller.id));
    try {
      const response = await fund({ deal_id: dealId, leg: 'asset' }, devnet.seller.token, anotherHost);
      expect(response.statusCode, response.body).toBe(200);
      expect(await devnet.balance('ETH', deposit.asset)).toBe(10n ** 18n);
    } finally {
      await devnet.database.db.delete(schema.userRoles).where(eq(schema.userRoles.userId, devnet.seller.id));
      await devnet.database.db
        .update(schema.sessions)
        .set({ aal: 'aal1' })
        .where(eq(schema.sessions.userId, devnet.seller.id));
    }
  });

  it("hides the devnet's RPC address from other hosts, so the web app offers no devnet funding there", async () => {
    const local = (await devnet.app.inject({ method: 'GET', url: '/api/v1/chains' })).json();
    expect(local.data[0].rpc_url).toBe(devnet.chain.rpcUrl);
    const remote = (
      await devnet.app.inject({ method: 'GET', url: '/api/v1/chains', remoteAddress: anotherHost })
    ).json();
    expect(remote.data[0]).not.toHaveProperty('rpc_url');
    expect(remote.data[0]).toMatchObject({ chain: 'ETH', escrow_factory: devnet.chain.escrowFactory });
  });

  it('does not exist in production, even with the devnet and from this machine', async () => {
    const production = await buildTestApp({
      database: devnet.database,
      chains: { chains: [devnet.chain], stop: async () => {} },
      env: { NODE_ENV: 'production', ESCROW_POLL_MS: '0' },
    });
    try {
      const response = await production.app.inject({
        method: 'POST',
        url: '/api/v1/dev/fund',
        headers: { authorization: `Bearer ${devnet.buyer.token}` },
        payload: { deal_id: '00000000-0000-4000-8000-000000000000', leg: 'stable' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({
        code: 'NOT_FOUND',
        message: 'No route POST /api/v1/dev/fund',
      });
    } finally {
      await production.close();
    }
  });
});
