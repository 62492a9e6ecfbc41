import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthTestServer, startAuthTestServer } from './start-auth-test-server.js';

// An intruder with the password asks to move the account to an address of theirs; the owner takes
// the account back. The intruder's confirmation link must not hand it over afterwards.

let server: AuthTestServer;
beforeAll(async () => {
  server = await startAuthTestServer();
});
afterAll(() => server?.close());

let accounts = 0;
const newEmail = () => `pending${++accounts}.${Date.now()}@example.com`;
const password = 'correct horse battery';

async function signUpConfirmed(): Promise<string> {
  const email = newEmail();
  expect((await server.createClient().signUp({ email, password })).error).toBeNull();
  await fetch(server.linkIn(await server.takeEmail(email, 'Confirm your Covenant account')), {
    redirect: 'manual',
  });
  return email;
}

async function signedInClient(email: string, withPassword = password) {
  const client = server.createClient();
  expect((await client.signInWithPassword({ email, password: withPassword })).error).toBeNull();
  return client;
}

/** The intruder asks for the change and keeps the link e-mailed to their own address. */
async function requestChangeByIntruder(email: string): Promise<{ link: URL; intruderAddress: string }> {
  const intruder = await signedInClient(email);
  const intruderAddress = newEmail();
  expect((await intruder.updateUser({ email: intruderAddress })).error).toBeNull();
  const link = server.linkIn(await server.takeEmail(intruderAddress, 'new Covenant e-mail'));
  return { link, intruderAddress };
}

/** Opens the link like a browser; the error code in the fragment, if any. */
async function openLink(link: URL): Promise<string | null> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const fragment = new URLSearchParams(new URL(response.headers.get('location')!).hash.slice(1));
  return fragment.get('error_code');
}

async function expectNoPendingChange(email: string): Promise<void> {
  const [user] = await server.database.db.select().from(schema.users).where(eq(schema.users.email, email));
  expect(user).toMatchObject({ email, newEmail: null, emailChangeSentAt: null });
  const tokens = await server.database.db
    .select()
    .from(schema.oneTimeTokens)
    .where(and(eq(schema.oneTimeTokens.userId, user!.id), eq(schema.oneTimeTokens.type, 'email_change')));
  expect(tokens).toEqual([]);
}

describe('a pending e-mail change', () => {
  it('is cancelled by a password recovery: the intruder’s link no longer moves the account', async () => {
    const email = await signUpConfirmed();
    const { link } = await requestChangeByIntruder(email);

    const owner = server.createClient();
    expect((await owner.resetPasswordForEmail(email)).error).toBeNull();
    const recovery = await fetch(server.linkIn(await server.takeEmail(email, 'Reset your')), {
      redirect: 'manual',
    });
    const fragment = new URLSearchParams(new URL(recovery.headers.get('location')!).hash.slice(1));
    await owner.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    });
    expect((await owner.updateUser({ password: 'taken back for good' })).error).toBeNull();
    await expectNoPendingChange(email);

    expect(await openLink(link)).toBe('otp_expired');
    await expectNoPendingChange(email);
    await signedInClient(email, 'taken back for good');
  });

  it('is cancelled by a password change', async () => {
    const email = await signUpConfirmed();
    const { link } = await requestChangeByIntruder(email);
    const owner = await signedInClient(email);
    expect((await owner.updateUser({ password: 'changed by the owner' })).error).toBeNull();
    expect(await openLink(link)).toBe('otp_expired');
    await expectNoPendingChange(email);
  });

  it('is cancelled by a global sign-out, and is not sent again', async () => {
    const email = await signUpConfirmed();
    const { link, intruderAddress } = await requestChangeByIntruder(email);
    const owner = await signedInClient(email);
    expect((await owner.signOut({ scope: 'global' })).error).toBeNull();
    await expectNoPendingChange(email);

    expect((await server.createClient().resend({ type: 'email_change', email })).error).toBeNull();
    expect(await openLink(link)).toBe('otp_expired');
    await expectNoPendingChange(email);
    const [user] = await server.database.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(user?.email).toBe(email);
    expect(server.smtp.messages.filter((message) => message.to.includes(intruderAddress))).toHaveLength(1);
  });

  it('survives a sign-out of this session only', async () => {
    const email = await signUpConfirmed();
    const { link, intruderAddress } = await requestChangeByIntruder(email);
    const owner = await signedInClient(email);
    expect((await owner.signOut({ scope: 'local' })).error).toBeNull();
    expect(await openLink(link)).toBeNull();
    const [user] = await server.database.db
      .select()
      .from(schema.users)
      .where(eq(schema.users.email, intruderAddress));
    expect(user).toBeDefined();
  });
});
