import { expect, test } from '@playwright/test';

// A pre-rendered public page (ADR 032) is on screen before its app has loaded. A visitor who presses a
// tab then must find it selected once the app is there: tabs act on mouse down, not on click, so the
// press is made again in full (app/early-input.ts). The app's chunk is held back 3 s so the press
// lands before hydration on any machine.

test('a tab pressed before the app loads is selected once it has', async ({ page }) => {
  await page.route('**/assets/start-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue();
  });
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByLabel('First Name')).toBeVisible({ timeout: 20_000 });
});
