import { expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './public-checks.js';

test('the search finds FAQ, guides and documentation as you type, highlights matches, and says when nothing matches', async ({
  page,
}) => {
  await page.goto('/help-center');
  const search = page.getByRole('searchbox', { name: 'Search help articles' });
  const results = page.getByRole('region', { name: 'Search results' });

  await search.pressSequentially('refund');
  await expect(results).toBeVisible();
  await expect(results.getByText(/^\d+ results? for “refund”$/)).toBeVisible();
  await expect(results.getByRole('link', { name: /Automatic refund at the funding deadline/ })).toBeVisible();
  await expect(results.getByText(/^FAQ ·/).first()).toBeVisible();
  await expect(results.getByText(/^Documentation ·/).first()).toBeVisible();
  await expect(results.locator('mark').first()).toHaveText(/refund/i);

  // Each keystroke narrows the results.
  const before = await results.getByRole('listitem').count();
  await search.pressSequentially(' deadline');
  await expect.poll(() => results.getByRole('listitem').count()).toBeLessThan(before);
  await expect(results.locator('mark', { hasText: /deadline/i }).first()).toBeVisible();

  await search.fill('quantum teleportation');
  await expect(page.getByText('No results for “quantum teleportation”')).toBeVisible();
  await expect(page.getByRole('link', { name: 'ask our support team' })).toHaveAttribute('href', '/contact');
  await expectNoSeriousAxeViolations(page);

  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(search).toHaveValue('');
  await expect(page.getByText(/No results for/)).toBeHidden();

  // A guide found by search, then followed.
  await search.fill('wallet setup');
  await results.getByRole('link', { name: /Multi-Chain Wallet Setup/ }).click();
  await expect(page).toHaveURL(/\/documentation\?tab=wallet-setup$/);
  await expect(page.getByRole('tab', { name: 'Wallet Setup' })).toHaveAttribute('aria-selected', 'true');
});

test('a FAQ result opens its answer', async ({ page }) => {
  await page.goto('/help-center');
  await page.getByRole('searchbox', { name: 'Search help articles' }).fill('confirmations');
  await page
    .getByRole('region', { name: 'Search results' })
    .getByRole('link', { name: /How many confirmations does a deposit need/ })
    .click();
  await expect(
    page.getByRole('button', { name: 'How many confirmations does a deposit need?' }),
  ).toHaveAttribute('aria-expanded', 'true');
  await expect(
    page.getByRole('tabpanel', { name: 'FAQ' }).getByText('At least 2 confirmations on Bitcoin'),
  ).toBeVisible();
});

test('the FAQ has four categories of three questions, one answer open at a time', async ({ page }) => {
  await page.goto('/help-center');
  await expect(page.getByRole('tab', { name: 'FAQ' })).toHaveAttribute('aria-selected', 'true');
  const faq = page.getByRole('tabpanel', { name: 'FAQ' });
  for (const category of ['Getting Started', 'Trading', 'Escrow & Security', 'Wallets & Technical']) {
    await expect(faq.getByRole('heading', { name: category, exact: true })).toBeVisible();
  }
  const questions = faq.locator('h4 button');
  await expect(questions).toHaveCount(12);

  await faq.getByRole('button', { name: 'How do I open an account?' }).click();
  await expect(faq.getByText(/password of at least 6 characters/)).toBeVisible();
  await faq.getByRole('button', { name: 'What does a trade cost?' }).click();
  await expect(faq.getByText(/flat platform fee of 0.01% of each leg/)).toBeVisible();
  await expect(faq.getByText(/password of at least 6 characters/)).toBeHidden();
  await expect(faq.locator('button[aria-expanded="true"]')).toHaveCount(1);

  // The open one closes again.
  await faq.getByRole('button', { name: 'What does a trade cost?' }).click();
  await expect(faq.locator('button[aria-expanded="true"]')).toHaveCount(0);
});

test('the guides link where the specification says, and Contact Support has the channels and the ticket form', async ({
  page,
}) => {
  await page.goto('/help-center');
  await page.getByRole('tab', { name: 'Guides' }).click();
  const guides = page.getByRole('tabpanel', { name: 'Guides' });
  const expected: [string, string][] = [
    ['First Trade Walkthrough', '/documentation?tab=trading-guide'],
    ['Multi-Chain Wallet Setup', '/documentation?tab=wallet-setup'],
    ['CIS Best Practices', '/how-it-works'],
    ['Security Guidelines', '/security'],
    ['Meet Travel coordination', '/covenant-meet'],
    ['API Integration', '/api-reference'],
  ];
  for (const [title, href] of expected) {
    await expect(guides.getByRole('link', { name: new RegExp(title) })).toHaveAttribute('href', href);
  }
  await guides.getByRole('link', { name: /Meet Travel coordination/ }).click();
  await expect(page).toHaveURL(/\/covenant-meet$/);

  await page.goto('/help-center?tab=contact');
  const contact = page.getByRole('tabpanel', { name: 'Contact Support' });
  await expect(contact.getByRole('heading', { name: 'Live chat' })).toBeVisible();
  await expect(contact.getByText('24/7')).toBeVisible();
  await expect(contact.getByText('Reply within 4 hours')).toBeVisible();
  await expect(contact.getByText('Business hours, 9 AM-6 PM UTC')).toBeVisible();
  const form = contact.getByRole('form', { name: 'Support ticket form' });
  await expect(form.getByLabel('Subject')).toBeVisible();
  await expect(form.getByLabel('Description')).toBeVisible();
  const category = form.getByLabel('Category');
  for (const option of [
    'Technical Issue',
    'Account Problem',
    'Trading Question',
    'Billing Inquiry',
    'Feature Request',
  ]) {
    await expect(category.getByRole('option', { name: option })).toBeAttached();
  }
  await expectNoSeriousAxeViolations(page);

  await page.getByRole('main').getByRole('link', { name: 'Contact Us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});
