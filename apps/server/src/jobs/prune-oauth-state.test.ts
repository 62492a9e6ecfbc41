import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPruneOAuthStateJob } from './prune-oauth-state.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('pruning OAuth state', () => {
  it('deletes expired flows, PKCE codes and pending identity links, and keeps the live ones', async () => {
    const now = new Date('2030-03-02T12:00:00Z');
    const [user] = await database.db.insert(schema.users).values({ email: 'oauth@example.com' }).returning();
    const expired = new Date('2030-03-02T11:59:59Z');
    const exactlyNow = now;
    const live = new Date('2030-03-02T12:00:01Z');
    const flow = (name: string, expiresAt: Date) => ({
      provider: 'google' as const,
      stateHash: name,
      nonce: 'n',
      providerCodeVerifier: 'sealed',
      redirectTo: 'http://localhost/',
      expiresAt,
    });
    await database.db
      .insert(schema.oauthFlows)
      .values([flow('expired', expired), flow('now', exactlyNow), flow('live', live)]);
    const code = (name: string, expiresAt: Date) => ({
      codeHash: name,
      userId: user!.id,
      provider: 'google' as const,
      codeChallenge: 'c',
      codeChallengeMethod: 's256' as const,
      expiresAt,
    });
    await database.db
      .insert(schema.oauthAuthCodes)
      .values([code('expired', expired), code('now', exactlyNow), code('live', live)]);
    const link = (name: string, expiresAt: Date) => ({
      tokenHash: name,
      userId: user!.id,
      provider: 'google' as const,
      providerId: `sub-${name}`,
      email: 'oauth@example.com',
      expiresAt,
    });
    await database.db
      .insert(schema.pendingIdentityLinks)
      .values([link('expired', expired), link('now', exactlyNow), link('live', live)]);

    await createPruneOAuthStateJob(database.db, () => now).handle({});

    // A code, flow or link is refused from its expiry on (expires_at <= now), so those go too.
    const flows = await database.db.select({ key: schema.oauthFlows.stateHash }).from(schema.oauthFlows);
    expect(flows.map((row) => row.key)).toEqual(['live']);
    const codes = await database.db
      .select({ key: schema.oauthAuthCodes.codeHash })
      .from(schema.oauthAuthCodes);
    expect(codes.map((row) => row.key)).toEqual(['live']);
    const links = await database.db
      .select({ key: schema.pendingIdentityLinks.tokenHash })
      .from(schema.pendingIdentityLinks);
    expect(links.map((row) => row.key)).toEqual(['live']);
  });
});
