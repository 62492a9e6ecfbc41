import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let admin: TestTrader;
let dealId: string;

beforeAll(async () => {
  parties = await startDealParties();
  admin = await createTestTrader(parties.app, { username: `admin_${Date.now()}`, roles: ['admin'] });
  const created = await call('POST', '/api/v1/deals', parties.buyer.token, {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: parties.seller.id,
  });
  expect(created.statusCode, created.body).toBe(201);
  dealId = created.json().id;
});
afterAll(async () => {
  await parties?.close();
});

function call(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) {
  return parties.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('/api/v1/staff/users', () => {
  it('finds users by part of their e-mail address or username, with their roles, a page at a time', async () => {
    const mediator = await createTestTrader(parties.app, {
      username: 'findme_mediator',
      roles: ['mediator'],
    });
    const trader = await createTestTrader(parties.app, { username: 'findme_trader' });
    const found = await call('GET', '/api/v1/staff/users?query=FINDME_', admin.token);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json()).toEqual({
      data: [
        {
          id: mediator.id,
          email: mediator.email,
          username: 'findme_mediator',
          roles: ['mediator'],
          created_at: expect.any(String),
        },
        {
          id: trader.id,
          email: trader.email,
          username: 'findme_trader',
          roles: [],
          created_at: expect.any(String),
        },
      ],
      has_more: false,
    });
    const first = await call('GET', '/api/v1/staff/users?query=findme&limit=1', admin.token);
    expect(first.json()).toMatchObject({ data: [{ id: mediator.id }], has_more: true });
    const second = await call('GET', '/api/v1/staff/users?query=findme&limit=1&offset=1', admin.token);
    expect(second.json()).toMatchObject({ data: [{ id: trader.id }], has_more: false });
    // `_` is a literal underscore, not a LIKE wildcard.
    expect((await call('GET', '/api/v1/staff/users?query=findme%5Fm', admin.token)).json().data).toHaveLength(
      1,
    );
    expect((await call('GET', '/api/v1/staff/users?query=findmexm', admin.token)).json().data).toHaveLength(
      0,
    );
    expect((await call('GET', '/api/v1/staff/users?limit=51', admin.token)).statusCode).toBe(400);
  });

  it('lets an admin grant mediator, which takes effect on that user’s next request', async () => {
    const user = await createTestTrader(parties.app, { aal: 'aal2' });
    const audit = `/api/v1/staff/deals/${dealId}/audit`;
    expect((await call('GET', audit, user.token)).statusCode).toBe(403);

    const granted = await call('PUT', `/api/v1/staff/users/${user.id}/roles`, admin.token, {
      roles: ['mediator'],
    });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ id: user.id, roles: ['mediator'] });
    const [row] = await parties.database.db
      .select()
      .from(schema.userRoles)
      .where(and(eq(schema.userRoles.userId, user.id), eq(schema.userRoles.role, 'mediator')));
    expect(row?.grantedBy).toBe(admin.id);

    const read = await call('GET', audit, user.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      deal_id: dealId,
      verified: true,
      entries: [{ seq: 1, action: 'created' }],
    });

    const revoked = await call('PUT', `/api/v1/staff/users/${user.id}/roles`, admin.token, { roles: [] });
    expect(revoked.json().roles).toEqual([]);
    expect((await call('GET', audit, user.token)).statusCode).toBe(403);
  });

  it('replaces the whole set and keeps who granted a role that stays', async () => {
    const user = await createTestTrader(parties.app, { roles: ['compliance'] });
    const changed = await call('PUT', `/api/v1/staff/users/${user.id}/roles`, admin.token, {
      roles: ['admin', 'compliance'],
    });
    expect(changed.json().roles).toEqual(['admin', 'compliance']);
    const rows = await parties.database.db
      .select()
      .from(schema.userRoles)
      .where(eq(schema.userRoles.userId, user.id));
    expect(rows.map((row) => [row.role, row.grantedBy]).sort()).toEqual([
      ['admin', admin.id],
      ['compliance', null],
    ]);
  });

  it('records every grant and revocation with the admin who made it, a revoked role included', async () => {
    const user = await createTestTrader(parties.app);
    const granted = await call('PUT', `/api/v1/staff/users/${user.id}/roles`, admin.token, {
      roles: ['mediator', 'compliance'],
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const revoked = await call('PUT', `/api/v1/staff/users/${user.id}/roles`, admin.token, {
      roles: ['compliance'],
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const unchanged = await call('PUT', `/api/v1/staff/users/${user.id}/roles`, admin.token, {
      roles: ['compliance'],
    });
    expect(unchanged.statusCode).toBe(200);
    const history = await parties.database.db
      .select()
      .from(schema.staffRoleChanges)
      .where(eq(schema.staffRoleChanges.userId, user.id));
    expect(
      history
        .map((row) => [row.role, row.change, row.changedBy])
        .sort((a, b) => a.join().localeCompare(b.join())),
    ).toEqual([
      ['compliance', 'granted', admin.id],
      ['mediator', 'granted', admin.id],
      ['mediator', 'revoked', admin.id],
    ]);
    const [revocation] = history.filter((row) => row.change === 'revoked');
    const [grant] = history.filter((row) => row.role === 'mediator' && row.change === 'granted');
    expect(revocation!.createdAt.getTime()).toBeGreaterThanOrEqual(grant!.createdAt.getTime());
  });

  it('refuses to remove the caller’s own admin role with 409, and keeps it', async () => {
    const refused = await call('PUT', `/api/v1/staff/users/${admin.id}/roles`, admin.token, {
      roles: ['mediator'],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('CONFLICT');
    const own = await call('GET', `/api/v1/staff/users?query=${admin.username}`, admin.token);
    expect(own.json().data[0].roles).toEqual(['admin']);
    const kept = await call('PUT', `/api/v1/staff/users/${admin.id}/roles`, admin.token, {
      roles: ['admin', 'mediator'],
    });
    expect(kept.json().roles).toEqual(['admin', 'mediator']);
    await call('PUT', `/api/v1/staff/users/${admin.id}/roles`, admin.token, { roles: ['admin'] });
  });

  it('lets only one of two admins removing each other at once through: an admin always remains', async () => {
    const first = await createTestTrader(parties.app, { roles: ['admin'] });
    const second = await createTestTrader(parties.app, { roles: ['admin'] });
    const answers = await Promise.all([
      call('PUT', `/api/v1/staff/users/${second.id}/roles`, first.token, { roles: [] }),
      call('PUT', `/api/v1/staff/users/${first.id}/roles`, second.token, { roles: [] }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
    const left = await parties.database.db
      .select({ userId: schema.userRoles.userId })
      .from(schema.userRoles)
      .where(and(eq(schema.userRoles.role, 'admin')));
    expect(left.filter((row) => row.userId === first.id || row.userId === second.id)).toHaveLength(1);
  });

  it('asks an admin whose session has not proved its user lately to reauthenticate, changing nothing', async () => {
    const stale = await createTestTrader(parties.app, { roles: ['admin'] });
    const target = await createTestTrader(parties.app);
    // Signed in (password and TOTP) two hours ago: aal2 still, but no recent proof.
    const twoHoursAgo = Math.floor(Date.now() / 1000) - 7_200;
    await parties.database.db
      .update(schema.sessions)
      .set({
        amr: [
          { method: 'totp', timestamp: twoHoursAgo },
          { method: 'password', timestamp: twoHoursAgo },
        ],
      })
      .where(eq(schema.sessions.userId, stale.id));
    const refused = await call('PUT', `/api/v1/staff/users/${target.id}/roles`, stale.token, {
      roles: ['admin'],
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().error.code).toBe('REAUTHENTICATION_NEEDED');
    const roles = await parties.database.db
      .select()
      .from(schema.userRoles)
      .where(eq(schema.userRoles.userId, target.id));
    expect(roles).toEqual([]);
  });

  it('validates the roles and the user', async () => {
    const user = await createTestTrader(parties.app);
    for (const roles of [['trader'], ['admin', 'admin'], 'admin']) {
      const bad = await call('PUT', `/api/v1/staff/users/${user.id}/roles`, admin.token, { roles });
      expect(bad.statusCode, JSON.stringify(roles)).toBe(400);
    }
    const missing = await call(
      'PUT',
      '/api/v1/staff/users/00000000-0000-4000-8000-000000000000/roles',
      admin.token,
      {
        roles: ['mediator'],
      },
    );
    expect(missing.statusCode).toBe(404);
  });

  it('is for admins with a second factor: 403 for traders, other staff and an aal1 admin', async () => {
    const trader = parties.buyer;
    const mediator = await createTestTrader(parties.app, { roles: ['mediator', 'compliance'] });
    const aal1Admin = await createTestTrader(parties.app, { roles: ['admin'], aal: 'aal1' });
    const target = await createTestTrader(parties.app);
    const requests: Array<['GET' | 'PUT', string, unknown?]> = [
      ['GET', '/api/v1/staff/users?query=a'],
      ['PUT', `/api/v1/staff/users/${target.id}/roles`, { roles: ['admin'] }],
    ];
    for (const [method, url, body] of requests) {
      for (const token of [trader.token, mediator.token]) {
        const refused = await call(method, url, token, body);
        expect(refused.statusCode, `${method} ${url}`).toBe(403);
        expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', details: null });
      }
      const aal1 = await call(method, url, aal1Admin.token, body);
      expect(aal1.statusCode).toBe(403);
      expect(aal1.json().error.details).toEqual({ required_aal: 'aal2' });
      expect((await parties.app.inject({ method, url })).statusCode).toBe(401);
    }
    const roles = await parties.database.db
      .select()
      .from(schema.userRoles)
      .where(eq(schema.userRoles.userId, target.id));
    expect(roles).toEqual([]);
  });
});

describe('/api/v1/staff/deals/{id}/audit', () => {
  it('shows any deal’s trail, the same body the parties get, to mediators, compliance and admins', async () => {
    const party = await call('GET', `/api/v1/deals/${dealId}/audit`, parties.buyer.token);
    expect(party.statusCode).toBe(200);
    for (const role of ['mediator', 'compliance', 'admin'] as const) {
      const staff = await createTestTrader(parties.app, { roles: [role] });
      const read = await call('GET', `/api/v1/staff/deals/${dealId}/audit`, staff.token);
      expect(read.statusCode, role).toBe(200);
      expect(read.json()).toEqual(party.json());
    }
    const missing = await call(
      'GET',
      '/api/v1/staff/deals/00000000-0000-4000-8000-000000000000/audit',
      admin.token,
    );
    expect(missing.statusCode).toBe(404);
  });

  it('is refused to traders (parties included), API keys and aal1 staff', async () => {
    const aal1 = await createTestTrader(parties.app, { roles: ['mediator'], aal: 'aal1' });
    const url = `/api/v1/staff/deals/${dealId}/audit`;
    for (const token of [parties.buyer.token, parties.outsider.token]) {
      const refused = await call('GET', url, token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('FORBIDDEN');
    }
    const asAal1 = await call('GET', url, aal1.token);
    expect(asAal1.statusCode).toBe(403);
    expect(asAal1.json().error.details).toEqual({ required_aal: 'aal2' });
  });
});
