import { expect, test } from '@playwright/test';
import { signInOwnBrowser, uploadCis } from './deal-room-helpers.js';
import { expectNoSeriousAxeViolations } from './public-checks.js';

// Suggested counterparties on the trading page's Find Partners tab, from the traders' CIS, and the
// opt-out in the settings: with the real server, database and browser.

test('a trader sees a counterparty whose CIS fits, with why, until that trader opts out', async ({
  browser,
}) => {
  const unverified = await signInOwnBrowser(browser, 'unverified@demo.covenant.test');
  await unverified.goto('/trading');
  await unverified.getByRole('tab', { name: 'Find Partners' }).click();
  await expect(
    unverified.getByText('Complete KYC verification to see suggested counterparties.'),
  ).toBeVisible();

  // Both demo traders store a sheet: ETH on Ethereum, $100k–$1M, 72 h (other specs may have stored
  // theirs before: the newest sheet counts).
  const run = Date.now();
  const buyer = await signInOwnBrowser(browser, 'buyer@demo.covenant.test');
  const seller = await signInOwnBrowser(browser, 'seller@demo.covenant.test');
  await uploadCis(buyer, `Matching Buyer Holdings ${run}`);
  await uploadCis(seller, `Matching Seller Trading ${run}`);

  await buyer.goto('/trading');
  await buyer.getByRole('tab', { name: 'Find Partners' }).click();
  await expect(buyer.getByRole('heading', { name: 'Suggested counterparties' })).toBeVisible();
  const suggestion = buyer.getByTestId('suggestion-card').filter({ hasText: 'demo_seller' });
  await expect(suggestion).toBeVisible();
  // Two pairs (35), both Enhanced so only $100k fits both ranges (30), the same window (15), no deals
  // (0), no disputes (10).
  await expect(suggestion.getByText('Fit 90/100')).toBeVisible();
  await expect(suggestion.getByRole('list', { name: 'Why' }).getByRole('listitem')).toHaveText([
    'both trade ETH against USDC on Ethereum and ETH against USDT on Ethereum',
    'sizes meet at $100k within the tier limits',
    'settles within 72 h',
    /completed deals? on Covenant/,
    /disputes? raised against them/,
  ]);
  await expectNoSeriousAxeViolations(buyer);
  // Nothing of the seller's sheet is shown.
  await expect(buyer.getByText(`Matching Seller Trading ${run}`)).toHaveCount(0);
  await suggestion.getByRole('button', { name: 'Select Partner' }).click();
  await expect(buyer.getByRole('tab', { name: 'Create Trade' })).toHaveAttribute('aria-selected', 'true');
  await expect(buyer.getByLabel('Trading Partner').locator('option:checked')).toHaveText(/demo_seller/);

  // The seller opts out in the settings: the buyer no longer sees them suggested.
  await seller.goto('/settings/matching');
  await expect(seller).toHaveURL(/\/settings\/matching$/);
  const toggle = seller.getByRole('checkbox', { name: 'Suggest me to other traders as a counterparty' });
  await expect(toggle).toBeChecked();
  await expectNoSeriousAxeViolations(seller);
  // The box follows the saved profile, so it changes once the server has answered.
  await toggle.click();
  await expect(seller.getByText('Saved: you are no longer suggested to other traders.')).toBeVisible();
  await expect(toggle).not.toBeChecked();
  try {
    await buyer.goto('/trading');
    await buyer.getByRole('tab', { name: 'Find Partners' }).click();
    await expect(buyer.getByTestId('partner-card').filter({ hasText: 'demo_seller' })).toBeVisible();
    await expect(buyer.getByTestId('suggestion-card').filter({ hasText: 'demo_seller' })).toHaveCount(0);
    await seller.reload();
    await expect(toggle).not.toBeChecked();
  } finally {
    await toggle.click();
    await expect(seller.getByText('Saved: other traders may see you among their suggestions.')).toBeVisible();
    await expect(toggle).toBeChecked();
  }
});
