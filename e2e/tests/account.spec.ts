import { expect, type Page, test } from '@playwright/test';
import { linkIn, waitForMail } from './mailbox.js';

const password = 'Vault-Ledger-4417';

function uniqueEmail(): string {
  return `trader.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function storedSession(page: Page): Promise<{ access_token: string; expires_at: number } | null> {
  return page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key?.endsWith('-auth-token')) return JSON.parse(localStorage.getItem(key) ?? 'null');
    }
    return null;
  });
}

test('a newcomer signs up, confirms the e-mail, signs in, stays signed in across reload and token expiry, and signs out', async ({
  page,
  request,
}) => {
  const email = uniqueEmail();

  await page.goto('/');
  const header = page.getByRole('banner');
  await header.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Username').fill(`ada${Date.now()}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Registration Successful!')).toBeVisible();
  await expect(page.getByText('Please check your email to verify your account.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  // Signing in before confirming is refused with the server's message.
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Sign In Failed')).toBeVisible();
  await expect(page.getByText('Email not confirmed')).toBeVisible();

  // The confirmation link arrives in the local mailbox; a person opens it from the mailbox page.
  const message = await waitForMail(request, email, /confirm/i);
  const link = linkIn(message, '/auth/v1/verify');
  await page.goto('/dev/mailbox');
  await page
    .getByRole('link', { name: new RegExp(message.subject) })
    .first()
    .click();
  await page.goto(link);
  await expect(page.getByRole('banner').getByText(email)).toBeVisible();

  // Sign out, then sign in with the password through the form.
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Welcome back!')).toBeVisible();
  await expect(page).toHaveURL(/\/trading$/);
  await expect(page.getByRole('banner').getByText(email)).toBeVisible();

  // A reload restores the session from local storage.
  await page.reload();
  await expect(page).toHaveURL(/\/trading$/);
  await expect(page.getByRole('banner').getByText(email)).toBeVisible();

  // With a 60 s access token, the client's 30 s refresh tick renews it (≤ 90 s left) without a sign-in.
  const before = await storedSession(page);
  expect(before).not.toBeNull();
  await expect
    .poll(async () => (await storedSession(page))?.expires_at ?? 0, { timeout: 45_000, intervals: [1_000] })
    .toBeGreaterThan(before!.expires_at);
  expect((await storedSession(page))?.access_token).not.toBe(before!.access_token);
  await page.reload();
  await expect(page.getByRole('banner').getByText(email)).toBeVisible();

  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect(await storedSession(page)).toBeNull();

  // The old session is gone on the server too: /trading sends a signed-out visitor to /auth.
  await page.goto('/trading');
  await expect(page).toHaveURL(/\/auth$/);
});
