import { expect, test } from '@playwright/test';

const footerLinks: [string, RegExp, string][] = [
  ['Features', /\/features$/, 'Features'],
  ['Security', /\/security$/, 'Security'],
  ['How It Works', /\/how-it-works$/, 'How It Works'],
  ['Covenant Meet', /\/covenant-meet$/, 'Covenant Meet'],
  ['Documentation', /\/documentation$/, 'Documentation'],
  ['API Reference', /\/api-reference$/, 'API Reference'],
  ['Help Center', /\/help-center$/, 'Help Center'],
  ['Contact', /\/contact$/, 'Contact'],
  ['Privacy Policy', /\/privacy-policy$/, 'Privacy Policy'],
  ['Terms of Service', /\/terms-of-service$/, 'Terms of Service'],
  ['Compliance', /\/compliance$/, 'Compliance'],
  ['Risk Disclosure', /\/risk-disclosure$/, 'Risk Disclosure'],
];

test('every footer link opens its page', async ({ page }) => {
  await page.goto('/');
  for (const [name, url, heading] of footerLinks) {
    await page.getByRole('contentinfo').getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expect(
      page.getByRole('main').getByRole('heading', { level: 1, name: heading, exact: true }),
    ).toBeVisible();
  }
  await page.getByRole('contentinfo').getByRole('link', { name: 'Covenant', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('every header link opens its page; trading asks a visitor to sign in', async ({ page }) => {
  await page.goto('/contact');
  const header = page.getByRole('banner');
  await header.getByRole('link', { name: 'Features' }).click();
  await expect(page).toHaveURL(/\/features$/);
  await header.getByRole('link', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/security$/);
  await header.getByRole('link', { name: 'Trading' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/features');
  await header.getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/features');
  await header.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await header.getByRole('link', { name: 'Covenant', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the landing page buttons lead where the specification says', async ({ page }) => {
  const buttons: [string, RegExp][] = [
    ['Learn More', /\/features$/],
    ['Explore All Features', /\/features$/],
    ['Learn More About Security', /\/security$/],
    ['Start Trading', /\/auth$/],
    ['Start Your First Trade', /\/auth$/],
  ];
  for (const [name, url] of buttons) {
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(url);
  }
});

test('on a 390 px phone the menu opens, leads to a page and closes', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(header.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await header.getByRole('button', { name: 'Open menu' }).click();
  await header.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(header.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  await header.getByRole('button', { name: 'Open menu' }).click();
  await header.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('the keyboard reaches the content, the tabs and the links', async ({ page }) => {
  await page.goto('/documentation');
  await expect(page.getByRole('heading', { level: 1, name: 'Documentation' })).toBeVisible();

  // The first Tab shows the skip link, which moves past the header.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);

  // Tabs follow the arrow keys, as a tab list should.
  const gettingStarted = page.getByRole('tab', { name: 'Getting Started' });
  await gettingStarted.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Trading Guide' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Trading Guide' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Create a deal with a verified partner' })).toBeVisible();
  await expect(page).toHaveURL(/tab=trading-guide/);

  // A link is followed with Enter.
  const apiLink = page.getByRole('main').getByRole('link', { name: 'API Reference', exact: true });
  await apiLink.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/api-reference$/);
});

test('a documentation link to a section opens its tab and scrolls to it', async ({ page }) => {
  await page.goto('/documentation?tab=wallet-setup#solana');
  await expect(page.getByRole('tab', { name: 'Wallet Setup' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Solana' })).toBeInViewport();
});

test('a visitor with a stored session is not offered Sign In before the app has checked it', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await page.addInitScript(() => {
    if (!window.sessionStorage.getItem('seeded')) {
      window.sessionStorage.setItem('seeded', 'yes');
      window.localStorage.setItem('covenant-auth-token', '{"not":"a session"}');
    }
  });
  const header = page.getByRole('banner');
  // The pre-rendered page alone, its app held back: the head's hint hides the way in.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/features');
  await expect(page.getByRole('heading', { level: 1, name: 'Features' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Sign In' })).toBeHidden();
  await expect(header.getByRole('link', { name: 'Get Started' })).toBeHidden();

  // With the app: the stored session is not one, so it is dropped and the header offers Sign In.
  await page.unroute('**/assets/*.js');
  await page.reload();
  await expect(header.getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.dataset.session)).toBeUndefined();
  expect(refused).toEqual([]);
});

test('a visitor without a stored session sees Sign In on the pre-rendered page, before any script of the app', async ({
  page,
}) => {
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/features');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
});
