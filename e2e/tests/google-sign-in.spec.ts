import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { openIdProviderURL } from '../playwright.config.js';
import { linkIn, waitForMail } from './mailbox.js';

// "Continue with Google" in the browser, through the official auth client's signInWithOAuth, against
// the local OpenID provider the config starts in Google's place (it logs in whoever the test names).

const password = 'Vault-Ledger-4417';

async function nextGoogleAccount(request: APIRequestContext, email: string) {
  const response = await request.put(`${openIdProviderURL}/test/account`, {
    data: {
      sub: `google-${randomUUID()}`,
      email,
      email_verified: true,
      given_name: 'Grace',
      family_name: 'Hopper',
    },
  });
  expect(response.status()).toBe(204);
}

test('the first Google sign-in creates the account and signs it in', async ({ page, request }) => {
  const email = `grace.${randomUUID()}@gmail.example`;
  await nextGoogleAccount(request, email);

  await page.goto('/signup');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/trading$/);
  const banner = page.getByRole('banner');
  await expect(banner.getByText(email)).toBeVisible();

  // Signed out, the same Google account comes back to the same account from the sign-in page.
  await banner.getByRole('button', { name: 'Sign Out' }).click();
  await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/trading$/);
  await expect(banner.getByText(email)).toBeVisible();
});

test('a Google account with the address of a password account is linked only after that password', async ({
  page,
  request,
}) => {
  const email = `owner.${randomUUID()}@example.com`;
  const signUp = await request.post('/auth/v1/signup', { data: { email, password } });
  expect(signUp.ok()).toBe(true);
  await page.goto(linkIn(await waitForMail(request, email, /confirm/i), '/auth/v1/verify'));
  const banner = page.getByRole('banner');
  await expect(banner.getByText(email)).toBeVisible();
  await banner.getByRole('button', { name: 'Sign Out' }).click();
  await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();

  await nextGoogleAccount(request, email);
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  // Not signed in by the address alone: the site asks for the account's password.
  const notice = page.getByRole('alert').filter({ hasText: 'Sign-in with Google did not complete.' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Sign in with that account’s password to link Google to it.');
  await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();

  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/trading$/);
  await expect(banner.getByText(email)).toBeVisible();
  const identities = await page.evaluate(async () => {
    const key = Object.keys(localStorage).find((name) => name.endsWith('-auth-token'))!;
    const { access_token } = JSON.parse(localStorage.getItem(key)!);
    const response = await fetch('/auth/v1/user', { headers: { authorization: `Bearer ${access_token}` } });
    return ((await response.json()).identities as { provider: string }[]).map(
      (identity) => identity.provider,
    );
  });
  expect(identities).toEqual(['email', 'google']);

  // Linked: Google now signs in to that account directly.
  await banner.getByRole('button', { name: 'Sign Out' }).click();
  await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/trading$/);
  await expect(banner.getByText(email)).toBeVisible();

  // The security settings list Google and unlink it (the Google sign-in just now is a recent proof).
  await page.goto('/settings/security');
  const methods = page.getByRole('region', { name: 'Sign-in methods' });
  await expect(methods.getByText('Google', { exact: true })).toBeVisible();
  await methods.getByRole('button', { name: 'Unlink' }).click();
  await expect(methods.getByText('Google sign-in was removed')).toBeVisible();
  await expect(methods.getByRole('button', { name: 'Unlink' })).toHaveCount(0);
  await expect(methods.getByText('E-mail and password')).toBeVisible();
  const unlinked = await waitForMail(request, email, /Google sign-in was removed/);
  expect(unlinked.text).toContain('can no longer sign in to your Covenant account');

  // Google no longer signs in to the account: it asks for the password again.
  await banner.getByRole('button', { name: 'Sign Out' }).click();
  await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Sign in with that account’s password to link Google to it.' }),
  ).toBeVisible();
  await expect(banner.getByRole('link', { name: 'Sign In' })).toBeVisible();
});
