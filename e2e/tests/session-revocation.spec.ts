import { expect, type Page, test } from '@playwright/test';
import { longSessionURL } from '../playwright.config.js';

// One-hour access tokens: the browser would not refresh on reload, so only the server can say the
// session is gone.
test.use({ baseURL: longSessionURL });

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/trading$/);
}

test('signing out in one browser ends the session in another as soon as it is looked at again', async ({
  browser,
}) => {
  const email = 'seller@demo.covenant.test';
  const laptop = await (await browser.newContext()).newPage();
  const phone = await (await browser.newContext()).newPage();
  await signIn(laptop, email, 'covenant-demo');
  await signIn(phone, email, 'covenant-demo');

  await laptop.getByRole('banner').getByRole('button', { name: 'Sign Out' }).click();
  await expect(laptop.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();

  // The phone's access token is still unexpired; the server's answer on reload is what signs it out.
  await phone.reload();
  await expect(phone).toHaveURL(/\/auth$/);
  await expect(phone.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
});
