import { networkInterfaces } from 'node:os';
import { expect, test } from '@playwright/test';
import { passStaffGate } from './staff-second-factor.js';

/** The server as another machine on the network reaches it: at this machine's non-loopback address. */
function originFromAnotherHost(baseURL: string): string {
  const address = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .find((entry) => !entry.internal && entry.family === 'IPv4')?.address;
  if (!address) throw new Error('this test needs a non-loopback IPv4 interface');
  const url = new URL(baseURL);
  url.hostname = address;
  return url.origin;
}

test('the dev mailbox opens on the server’s machine, and from elsewhere only to an admin with a second factor', async ({
  browser,
  request,
  baseURL,
}) => {
  // The staff gate may wait up to 30 s for a fresh authenticator code.
  test.setTimeout(120_000);
  const remote = originFromAnotherHost(baseURL ?? '');
  const email = `mailbox.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
  const signedUp = await request.post('/auth/v1/signup', { data: { email, password: 'Vault-Ledger-4417' } });
  expect(signedUp.ok()).toBe(true);
  // Sign-up answers before its e-mail is sent (a known address must not take longer): wait for it.
  await expect
    .poll(async () => JSON.stringify(await (await request.get('/dev/mailbox.json')).json()), {
      timeout: 15_000,
    })
    .toContain(email);

  // On the server's machine: the server's own mailbox page.
  const local = await browser.newPage();
  await local.goto('/dev/mailbox');
  await expect(local.getByRole('heading', { level: 1, name: 'Mailbox' })).toBeVisible();
  await expect(local.getByText(email)).toBeVisible();

  // From another host the mailbox does not exist, and the web app's page says why.
  expect((await request.get(`${remote}/dev/mailbox.json`)).status()).toBe(404);
  const visitor = await (await browser.newContext({ baseURL: remote })).newPage();
  await visitor.goto('/dev/mailbox');
  await expect(visitor.getByRole('heading', { level: 1, name: 'Dev mailbox' })).toBeVisible();
  await expect(visitor.getByRole('alert')).toContainText('The dev mailbox is not open to you here.');
  await expect(visitor.getByText(email)).toBeHidden();

  // The demo admin signs in there, passes the second factor, and reads it.
  const admin = await (await browser.newContext({ baseURL: remote })).newPage();
  await admin.goto('/auth');
  await admin.getByLabel('Email').fill('admin@demo.covenant.test');
  await admin.getByLabel('Password', { exact: true }).fill('covenant-demo');
  await admin.getByRole('button', { name: 'Sign In' }).click();
  await expect(admin).toHaveURL(/\/trading$/);
  await admin.goto('/staff/alerts');
  await passStaffGate(admin);
  await admin.goto('/dev/mailbox');
  const messages = admin.getByRole('list', { name: 'Messages, newest first' });
  await expect(messages.getByText(`To ${email}`)).toBeVisible();
});
