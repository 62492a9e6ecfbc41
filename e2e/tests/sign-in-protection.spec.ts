import { request as httpRequest } from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { linkIn, waitForMail } from './mailbox.js';

// Sign-in throttling and sign-up with a registered address, as people meet them (ADR 012).

const password = 'Vault-Ledger-4417';

/**
 * A sign-in attempt from 127.0.0.2: another client address on this machine, so the attacker's
 * failures count against its own network, not against the browser's.
 */
function signInFromElsewhere(baseURL: string, email: string, withPassword: string) {
  const { port } = new URL(baseURL);
  return new Promise<{ status: number; body: { code?: string; message?: string } }>((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress: '127.0.0.2',
        method: 'POST',
        path: '/auth/v1/token?grant_type=password',
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ email, password: withPassword }));
  });
}

async function signInWithForm(page: Page, email: string) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

async function fillSignUp(page: Page, email: string) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Username').fill(`ada${Date.now()}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

test('an attacker hammering an account cannot keep its owner out of a browser they signed in on before', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const email = `owner.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
  await fillSignUp(page, email);
  await expect(page.getByText('Registration Successful!')).toBeVisible();
  await page.goto(linkIn(await waitForMail(request, email, /confirm/i), '/auth/v1/verify'));
  await expect(page.getByRole('banner').getByText(email)).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();

  // Signing in with the password makes this browser a known device of the account.
  await signInWithForm(page, email);
  await expect(page.getByText('Welcome back!')).toBeVisible();
  const [deviceCookie] = (await page.context().cookies()).filter((cookie) =>
    cookie.name.startsWith('covenant-device-'),
  );
  expect(deviceCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();

  // 25 wrong passwords at once from elsewhere: 20 are checked, then the account refuses strangers.
  const attack = await Promise.all(
    Array.from({ length: 25 }, (_, index) => signInFromElsewhere(baseURL!, email, `guess-${index}`)),
  );
  expect(attack.filter((attempt) => attempt.status === 400)).toHaveLength(20);
  expect(attack.filter((attempt) => attempt.status === 429)).toHaveLength(5);

  // A browser the account does not know is refused, with the way out in the message.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await signInWithForm(strangerPage, email);
  await expect(strangerPage.getByText('Sign In Failed')).toBeVisible();
  await expect(
    strangerPage.getByText(
      'Too many failed sign-in attempts for this account. Sign in on a device you have used before, or reset your password.',
    ),
  ).toBeVisible();
  await stranger.close();

  // The owner's own browser signs in as usual.
  await signInWithForm(page, email);
  await expect(page.getByText('Welcome back!')).toBeVisible();
  await expect(page).toHaveURL(/\/trading$/);
  await expect(page.getByRole('banner').getByText(email)).toBeVisible();
});

test('signing up with a registered address looks like any sign-up, and its owner is told by e-mail', async ({
  page,
  request,
}) => {
  const owner = 'buyer@demo.covenant.test';
  await fillSignUp(page, owner);
  await expect(page.getByText('Registration Successful!')).toBeVisible();
  await expect(page.getByText('Please check your email to verify your account.')).toBeVisible();

  const notice = await waitForMail(request, owner, /Someone tried to create a Covenant account/);
  expect(notice.text).toContain('If it was you, sign in or reset your password.');
  await page.goto(linkIn(notice, '/signin'));
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.goto(linkIn(notice, '/auth/v1/verify'));
  await expect(page).toHaveURL(/\/reset-password/);
  await expect(page.getByText('Choose a new password')).toBeVisible();
});
