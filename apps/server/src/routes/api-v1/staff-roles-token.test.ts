import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword, seedDemoData } from '../../seed/seed-demo-data.js';
import { signInDemoStaff } from '../../testing/sign-in-demo-staff.js';
import { type AuthTestServer, startAuthTestServer } from '../auth-v1/start-auth-test-server.js';

type ApiErrorBody = { error: { details: unknown } };

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer();
  await seedDemoData(server.database.db, server.now);
});
afterAll(() => server?.close());

describe('a role granted by an admin', () => {
  it('reaches the user’s next request with the old token and their next token after a refresh', async () => {
    const admin = await signInDemoStaff(server, 'admin@demo.covenant.test');
    const seller = server.createClient();
    const signedIn = await seller.signInWithPassword({
      email: 'seller@demo.covenant.test',
      password: demoPassword,
    });
    expect(signedIn.error).toBeNull();
    const { user, session } = signedIn.data;
    expect(decodeJwt(session!.access_token).app_metadata).not.toHaveProperty('roles');

    const staffRoute = `${server.origin}/api/v1/staff/deals/00000000-0000-4000-8000-000000000000/audit`;
    const before = await fetch(staffRoute, { headers: { authorization: `Bearer ${session!.access_token}` } });
    expect(before.status).toBe(403);
    expect(((await before.json()) as ApiErrorBody).error.details).toBeNull();

    const granted = await fetch(`${server.origin}/api/v1/staff/users/${user!.id}/roles`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ roles: ['mediator'] }),
    });
    expect(granted.status).toBe(200);

    // The old token already counts as a mediator's (the role is read per request): at aal1 the staff
    // route now asks for a second factor instead of refusing a trader.
    const next = await fetch(
      `${server.origin}/api/v1/staff/deals/00000000-0000-4000-8000-000000000000/audit`,
      {
        headers: { authorization: `Bearer ${session!.access_token}` },
      },
    );
    expect(next.status).toBe(403);
    expect(((await next.json()) as ApiErrorBody).error.details).toEqual({ required_aal: 'aal2' });

    const refreshed = await seller.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(decodeJwt(refreshed.data.session!.access_token).app_metadata).toMatchObject({
      roles: ['mediator'],
    });
    expect(refreshed.data.user!.app_metadata.roles).toEqual(['mediator']);
  });
});
