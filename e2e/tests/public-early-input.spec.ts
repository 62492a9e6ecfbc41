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

// The skip link is a link within the page: followed before the app loads, it adds `#main` to the
// address. The page must still be hydrated, not drawn anew (as a page opened with a fragment is), or
// the element the visitor's focus is on would be replaced and the focus lost. An arrow key pressed in
// the tab list meanwhile is pressed again once the app is there.
test('the keyboard keeps its place and its arrow keys from before the app loads, after the skip link', async ({
  page,
}) => {
  let released = false;
  await page.route('**/assets/start-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    released = true;
    await route.continue();
  });
  await page.goto('/documentation');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
  await page.getByRole('tab', { name: 'Getting Started' }).focus();
  await page.keyboard.press('ArrowRight');
  expect(released).toBe(false);
  // Hydrated: the footer's year is filled in once the app has mounted.
  await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Covenant`, {
    timeout: 20_000,
  });
  await expect(page.getByRole('tab', { name: 'Trading Guide' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Trading Guide' })).toHaveAttribute('aria-selected', 'true');
});

// A visitor on a phone who taps the menu button, and taps it again because nothing happened, wants the
// menu open once the app is there, not opened and closed.
test('the phone menu tapped twice before the app loads is open once it has', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.route('**/assets/start-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue();
  });
  await page.goto('/');
  const header = page.getByRole('banner');
  await header.getByRole('button', { name: 'Open menu' }).click();
  await header.getByRole('button', { name: 'Open menu' }).click();
  await header.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Security' }).click({
    timeout: 20_000,
  });
  await expect(page).toHaveURL(/\/security$/);
  await expect(header.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
});
