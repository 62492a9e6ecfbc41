import { expect, test } from '@playwright/test';
import { createDealWithDemoSeller, signInOwnBrowser } from './deal-room-helpers.js';
import { passStaffGate } from './staff-second-factor.js';

test('the demo mediator finds a deal by its id and opens it whole; a trader is refused', async ({
  browser,
}) => {
  // The staff gate may wait up to 30 s for a fresh authenticator code.
  test.setTimeout(120_000);
  const buyer = await signInOwnBrowser(browser, 'buyer@demo.covenant.test');
  const dealId = await createDealWithDemoSeller(buyer, {
    assetChain: 'ETH',
    assetSymbol: 'WBTC',
    assetAmount: '0.75',
    stableChain: 'ETH',
    stableSymbol: 'USDT',
    stableAmount: '45000',
  });

  // A trader gets the staff-only page, and the API answers the staff deal view with 403.
  await buyer.goto(`/staff/deals?q=${dealId}`);
  await expect(buyer.getByRole('heading', { name: '403 — Staff only' })).toBeVisible();
  const refused = await buyer.evaluate(async (id) => {
    const stored = JSON.parse(localStorage.getItem('covenant-auth-token') ?? '{}') as {
      access_token?: string;
    };
    const response = await fetch(`/api/v1/staff/deals/${id}`, {
      headers: { Authorization: `Bearer ${stored.access_token}` },
    });
    return response.status;
  }, dealId);
  expect(refused).toBe(403);

  const mediator = await signInOwnBrowser(browser, 'mediator@demo.covenant.test');
  await mediator.goto('/staff/deals');
  await passStaffGate(mediator);
  await mediator.getByLabel('Search deals').fill(dealId);
  await mediator.getByRole('button', { name: 'Search' }).click();
  const found = mediator.getByRole('list', { name: 'Deals found' }).getByRole('listitem');
  await expect(found).toHaveCount(1);
  await expect(found).toContainText('buyer@demo.covenant.test');
  await found.getByRole('link', { name: '0.75 WBTC for 45000 USDT' }).click();

  await expect(mediator.getByRole('heading', { name: 'Deal', level: 1 })).toBeVisible();
  await expect(mediator.getByRole('region', { name: 'Terms' })).toContainText(dealId);
  const parties = mediator.getByRole('region', { name: 'Parties' });
  await expect(parties).toContainText('buyer@demo.covenant.test');
  await expect(parties).toContainText('seller@demo.covenant.test');
  await expect(mediator.getByRole('region', { name: 'Escrow' })).toContainText(
    'The escrow is not opened yet',
  );
  // The search and this read are both in the deal's audit trail, which still verifies.
  const audit = mediator.getByRole('region', { name: 'Audit trail' });
  await expect(audit).toContainText(/Verified — \d+ entries, chain intact/);
  await expect(audit.getByRole('row').filter({ hasText: 'staff viewed' })).toHaveCount(2);

  // At 390 px (a phone) the page fits its width: wide tables scroll inside their own box.
  await mediator.setViewportSize({ width: 390, height: 844 });
  await expect(audit).toBeVisible();
  const overflow = await mediator.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
