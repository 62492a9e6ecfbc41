import { expect, test } from '@playwright/test';
import { shortReauthenticationURL } from '../playwright.config.js';

// Sensitive actions need a recent sign-in (ADR 013); this server counts one as recent for 30 s.
test.use({ baseURL: shortReauthenticationURL });

const password = 'covenant-demo';
const reauthenticationWindowMs = 30_000;

test('a read-only key reads but cannot trade or replace the escrow key, and a later key asks for the password first', async ({
  page,
  request,
}) => {
  await page.goto('/auth');
  await page.getByLabel('Email').fill('seller@demo.covenant.test');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/trading$/);
  const signedInAt = Date.now();

  // Just signed in: a key is created without a question, read-only unless trade is chosen.
  await page.goto('/settings/api-keys');
  const readName = `read key ${Date.now()}`;
  await page.getByLabel('Key Name').fill(readName);
  await page.getByRole('button', { name: 'Create Key' }).click();
  const shown = page.getByRole('region', { name: `Your new API key "${readName}"` });
  const key = (await shown.locator('code').textContent()) ?? '';
  expect(key).toMatch(/^cov_live_/);
  const keys = page.getByRole('list', { name: 'API keys' });
  await expect(keys.getByRole('listitem').filter({ hasText: readName })).toContainText('read only');
  await shown.getByRole('button', { name: 'I have saved it' }).click();

  const withKey = { headers: { Authorization: `Bearer ${key}` } };
  expect((await request.get('/api/v1/deals', withKey)).status()).toBe(200);
  const trade = await request.post('/api/v1/notifications/read-all', withKey);
  expect(trade.status()).toBe(403);
  expect((await trade.json()).error.details).toEqual({ reason: 'scope_missing' });
  const escrowKey = await request.put('/api/v1/wallets/escrow-key', { ...withKey, data: {} });
  expect(escrowKey.status()).toBe(403);
  expect((await escrowKey.json()).error.details).toEqual({ reason: 'api_key_not_allowed' });

  // Once the sign-in is no longer recent, the next key needs the password again.
  await page.waitForTimeout(Math.max(0, signedInAt + reauthenticationWindowMs + 1_000 - Date.now()));
  const tradeName = `trade key ${Date.now()}`;
  await page.getByLabel('Key Name').fill(tradeName);
  await page.getByLabel('Access').selectOption({ label: 'Read and trade' });
  await page.getByRole('button', { name: 'Create Key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm It’s You' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password').fill('not the password');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('That password is not correct.');
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toHaveCount(0);

  // The refused request was sent again and the key made.
  await expect(page.getByRole('region', { name: `Your new API key "${tradeName}"` })).toBeVisible();
  await expect(keys.getByRole('listitem').filter({ hasText: tradeName })).toContainText('read and trade');
  await expect(page.getByText('The key could not be created')).toHaveCount(0);
});
