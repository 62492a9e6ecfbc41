import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoSeriousAxeViolations, saveScreenshots } from './public-checks.js';

const password = 'covenant-demo';

async function signIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/trading$/);
  return page;
}

// A toast with its title and message; closed afterwards so the next one is read on its own.
async function expectToast(page: Page, title: string, message: string): Promise<void> {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: message });
  await expect(toast).toBeVisible();
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
  await toast.getByRole('button', { name: 'Close toast' }).click();
  await expect(toast).toHaveCount(0);
}

async function createTrade(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Create Trade', exact: true }).click();
}

test('a trader without KYC is told to complete it, and has no trades yet', async ({ browser }) => {
  const page = await signIn(browser, 'unverified@demo.covenant.test');
  const status = page.getByRole('list', { name: 'Account status' });
  await expect(status.getByRole('link', { name: 'Verification Pending' })).toHaveAttribute('href', '/kyc');
  await expect(status.getByText('Basic Tier')).toBeVisible();
  await expect(status.getByText('KYC Complete')).toHaveCount(0);

  await createTrade(page);
  await expectToast(page, 'KYC Required', 'Please complete KYC verification before trading.');

  await page.getByRole('tab', { name: /My Trades/ }).click();
  await expect(page.getByText('No trades yet')).toBeVisible();
  await page.getByRole('button', { name: 'Create Trade', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Create Trade' })).toHaveAttribute('aria-selected', 'true');
});

test('the demo buyer walks every tab and check, creates a deal, and the seller sees it', async ({
  browser,
}) => {
  const buyer = await (await browser.newContext()).newPage();

  // A profile that cannot be read is logged and shown with a retry; creating then asks to sign in.
  const logged: string[] = [];
  buyer.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text());
  });
  await buyer.route('**/api/v1/user/profile', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        error: {
          code: 'INTERNAL_ERROR',
          message: 'Internal error',
          details: null,
          timestamp: new Date().toISOString(),
        },
      }),
    }),
  );
  await buyer.goto('/auth');
  await buyer.getByLabel('Email').fill('buyer@demo.covenant.test');
  await buyer.getByLabel('Password', { exact: true }).fill(password);
  await buyer.getByRole('button', { name: 'Sign In' }).click();
  await expect(buyer.getByText('Your profile could not be loaded.')).toBeVisible({ timeout: 20_000 });
  expect(logged.some((text) => text.startsWith('Error fetching profile:'))).toBe(true);
  await createTrade(buyer);
  await expectToast(buyer, 'Authentication Required', 'Please sign in to create trades.');
  await buyer.unroute('**/api/v1/user/profile');
  await buyer.getByRole('button', { name: 'Try again' }).click();

  const status = buyer.getByRole('list', { name: 'Account status' });
  await expect(status.getByText('Verified')).toBeVisible();
  await expect(status.getByText('Enhanced Tier')).toBeVisible();
  await expect(status.getByText('KYC Complete')).toBeVisible();
  await expect(buyer.getByRole('tab', { name: 'Create Trade' })).toHaveAttribute('aria-selected', 'true');
  await expectNoSeriousAxeViolations(buyer);
  await saveScreenshots(buyer, 'trading-create');

  // Only the chains GET /api/v1/chains lists (Bitcoin, Ethereum and Solana; stablecoins on Ethereum
  // and Solana), and the symbols that live there.
  await expect(buyer.getByLabel('Asset Chain').getByRole('option')).toHaveText(['BTC', 'ETH', 'SOL']);
  await expect(buyer.getByLabel('Stable Chain').getByRole('option')).toHaveText(['ETH', 'SOL']);
  await expect(buyer.getByLabel('Asset Symbol').getByRole('option')).toHaveText([
    'ETH',
    'WETH',
    'WBTC',
    'USDC',
    'USDT',
  ]);
  await buyer.getByLabel('Asset Symbol').selectOption('WBTC');

  // The spec's checks, one at a time and in order.
  await createTrade(buyer);
  await expectToast(buyer, 'Select Partner', 'Please select a trading partner.');

  await buyer.getByRole('tab', { name: 'Find Partners' }).click();
  await buyer.getByLabel('Search partners by username').fill('SELLER');
  const partner = buyer.getByTestId('partner-card');
  await expect(partner).toHaveCount(1);
  await expect(partner.getByText('demo_seller')).toBeVisible();
  await expect(partner.getByText('Enhanced Tier')).toBeVisible();
  await expect(partner.getByText('Verified')).toBeVisible();
  await expectNoSeriousAxeViolations(buyer);
  await buyer.getByLabel('Search partners by username').fill('nobody-by-this-name');
  await expect(partner).toHaveCount(0);
  await buyer.getByLabel('Search partners by username').fill('seller');
  await partner.getByRole('button', { name: 'Select Partner' }).click();
  await expect(buyer.getByRole('tab', { name: 'Create Trade' })).toHaveAttribute('aria-selected', 'true');
  await expect(buyer.getByLabel('Trading Partner').locator('option:checked')).toHaveText(
    'demo_seller (Enhanced Tier)',
  );

  await createTrade(buyer);
  await expectToast(buyer, 'Invalid Amount', 'Asset amount must be a positive number.');

  await buyer.getByLabel('Asset Amount').fill('0');
  await createTrade(buyer);
  await expectToast(buyer, 'Invalid Amount', 'Asset amount must be a positive number.');

  await buyer.getByLabel('Asset Amount').fill('0.5');
  await createTrade(buyer);
  await expectToast(buyer, 'Invalid Amount', 'Stable amount must be a positive number.');

  await buyer.getByLabel('Stable Amount').fill('1000000.01');
  await createTrade(buyer);
  await expectToast(buyer, 'Amount Too Large', 'Trade amounts exceed maximum limits.');

  await buyer.getByLabel('Stable Amount').fill('5000');
  await buyer.getByLabel('Asset Amount').fill('1000000.00000001');
  await createTrade(buyer);
  await expectToast(buyer, 'Amount Too Large', 'Trade amounts exceed maximum limits.');

  await buyer.getByLabel('Asset Amount').fill('0.5');
  await buyer.getByLabel('Stable Amount').fill('100000.01');
  await createTrade(buyer);
  await expectToast(
    buyer,
    'Tier Limit Exceeded',
    'This trade exceeds your Enhanced tier limit of $100,000 per transaction.',
  );

  // A server failure reads as the spec's error, and the form keeps what was typed.
  await buyer.route('**/api/v1/deals', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 503, body: '' }) : route.fallback(),
  );
  await buyer.getByLabel('Stable Amount').fill('30000.5');
  await createTrade(buyer);
  await expectToast(buyer, 'Error', 'Failed to create trade. Please try again.');
  await buyer.unroute('**/api/v1/deals');

  // A unique amount tells this run's deal apart from any other the demo accounts have.
  const satoshis = 10_000_000 + Math.floor(Math.random() * 89_999_999);
  const assetAmount = `0.${String(satoshis).padStart(8, '0')}`.replace(/0+$/, '');
  await buyer.getByLabel('Asset Amount').fill(assetAmount);
  await buyer.getByLabel('Require in-person meeting').check();
  await buyer.getByLabel('Meeting Location').fill('Zurich, CH');
  await buyer.getByLabel('Latitude').fill('47.3769');
  await buyer.getByLabel('Longitude').fill('8.5417');
  await buyer.getByLabel('First day').fill('2026-12-01');
  await buyer.getByLabel('Duration').selectOption('1-3');
  await buyer.getByLabel('Travel paid by').selectOption('split');
  const created = buyer.waitForResponse(
    (response) => response.url().endsWith('/api/v1/deals') && response.request().method() === 'POST',
  );
  await createTrade(buyer);
  const response = await created;
  expect(response.status()).toBe(201);
  const deal = (await response.json()) as { id: string; asset_amount: string; stable_amount: string };
  // Sent exactly in base units: WBTC's hundred-millionths and USDC's millionths.
  expect(deal.asset_amount).toBe(String(satoshis));
  expect(deal.stable_amount).toBe('30000500000');
  await expectToast(buyer, 'Trade Created', 'Your trade has been created as a draft.');

  await buyer.getByRole('tab', { name: /My Trades/ }).click();
  const card = buyer.getByTestId('trade-card').filter({ hasText: `${assetAmount} WBTC` });
  await expect(card).toContainText(`${assetAmount} WBTC for 30000.5 USDC`);
  await expect(card).toContainText('ETH');
  await expect(card.getByText('Draft')).toBeVisible();
  await expect(card.getByText('Meeting Required')).toBeVisible();
  await expect(buyer.getByTestId('trade-count')).not.toHaveText('0');
  await expectNoSeriousAxeViolations(buyer);
  await saveScreenshots(buyer, 'trading-my-trades');

  await buyer.getByRole('tab', { name: 'CIS Documents' }).click();
  await buyer.getByRole('button', { name: 'Upload CIS' }).click();
  const cisForm = buyer.getByRole('form', { name: 'Customer Information Sheet' });
  await expectNoSeriousAxeViolations(buyer);
  const legalName = `Demo Buyer Holdings ${Date.now()}`;
  await cisForm.getByLabel('Legal name').fill(legalName);
  await cisForm.getByLabel('Entity type').selectOption('company');
  await cisForm.getByLabel('Jurisdiction').selectOption({ label: 'Switzerland' });
  await cisForm.getByLabel('Source of funds').fill('Retained trading profits');
  await cisForm.locator('input[name="assets"][value="BTC"]').check();
  await cisForm.getByLabel('Minimum trade size (USD)').fill('100,000');
  await cisForm.getByLabel('Maximum trade size (USD)').fill('1000000');
  await cisForm.locator('input[name="preferred_chains"][value="BTC"]').check();
  await cisForm.getByLabel('Settlement window (hours)').fill('72');
  await cisForm.getByLabel('Signed PDF (optional)').setInputFiles({
    name: 'cis.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.7\n%%EOF\n'),
  });
  await cisForm.getByRole('button', { name: 'Save CIS' }).click();
  const sheet = buyer.getByTestId('cis-sheet').filter({ hasText: legalName });
  await expect(sheet).toContainText('Retained trading profits');
  await expect(sheet).toContainText('Switzerland (CH)');
  await expect(sheet).toContainText('$100,000 – $1,000,000');
  await expect(sheet).toContainText('Within 72 hours');
  await expect(sheet).toContainText('Attached');
  await expectNoSeriousAxeViolations(buyer);

  // The seller, in a browser of their own, sees the deal and opens it.
  const seller = await signIn(browser, 'seller@demo.covenant.test');
  await seller.getByRole('tab', { name: /My Trades/ }).click();
  const sellerCard = seller.getByTestId('trade-card').filter({ hasText: `${assetAmount} WBTC` });
  await expect(sellerCard).toContainText(`${assetAmount} WBTC for 30000.5 USDC`);
  await expect(sellerCard.getByText('Meeting Required')).toBeVisible();
  await sellerCard.getByRole('link', { name: 'View Details' }).click();
  await expect(seller).toHaveURL(new RegExp(`/trading/deals/${deal.id}$`));
  await expect(seller.getByRole('heading', { name: 'Deal Details' })).toBeVisible();
  const field = (label: string) =>
    seller.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd');
  await expect(field('Deal ID')).toHaveText(deal.id);
  await expect(field('Status')).toHaveText('Draft');
  await expect(field('Buyer')).toHaveText('demo_buyer (Enhanced Tier)');
  await expect(field('Seller')).toHaveText('demo_seller (Enhanced Tier) — you');
  await expect(field('Asset')).toHaveText(`${assetAmount} WBTC on ETH`);
  await expect(field('Stable')).toHaveText('30000.5 USDC on ETH');
  await expect(field('Meeting Required')).toHaveText('Yes');
  await expect(field('Meeting Location')).toHaveText('Zurich, CH');
  await expect(seller.getByRole('list', { name: 'Deal history' }).getByRole('listitem')).not.toHaveCount(0);
  await expectNoSeriousAxeViolations(seller);
  await saveScreenshots(seller, 'trading-deal');
});

test('a trader gets an API key from the trading page, calls the API with it, revokes it, and manages a webhook', async ({
  browser,
  request,
}) => {
  const page = await signIn(browser, 'buyer@demo.covenant.test');
  await page.getByRole('link', { name: 'Get API Key' }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole('heading', { name: 'Get API Key' })).toBeVisible();

  const name = `e2e key ${Date.now()}`;
  await page.getByLabel('Key Name').fill(name);
  await page.getByRole('button', { name: 'Create Key' }).click();
  const shown = page.getByRole('region', { name: `Your new API key "${name}"` });
  const key = (await shown.locator('code').textContent()) ?? '';
  expect(key).toMatch(/^cov_live_/);
  await expect(page.getByRole('list', { name: 'API keys' }).getByText(name)).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await saveScreenshots(page, 'settings-api-keys');

  const withKey = { headers: { Authorization: `Bearer ${key}` } };
  expect((await request.get('/api/v1/user/profile', withKey)).status()).toBe(200);

  // Shown once: after a reload only the list remains, without the key.
  await page.reload();
  await expect(page.getByRole('list', { name: 'API keys' }).getByText(name)).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);

  page.once('dialog', (dialog) => dialog.accept());
  await page.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(page.getByRole('list', { name: 'API keys' }).getByText(name)).toHaveCount(0);
  const refused = await request.get('/api/v1/user/profile', withKey);
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe('UNAUTHORIZED');

  // Webhooks: a target on this machine is refused; a public one gets a secret shown once. A literal
  // public address needs no DNS, and it is deleted before any event could be sent (documentation
  // ranges such as TEST-NET-3 are refused as targets).
  await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/covenant');
  await page.getByRole('button', { name: 'Add Webhook' }).click();
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'The webhook could not be added' }),
  ).toBeVisible();

  const target = 'https://93.184.215.14/covenant';
  await page.getByLabel('Endpoint URL').fill(target);
  await page.getByRole('button', { name: 'Add Webhook' }).click();
  const secret = page.getByRole('region', { name: `Signing secret for ${target}` });
  await expect(secret.locator('code')).toHaveText(/^whsec_/);
  const hooks = page.getByRole('list', { name: 'Webhooks' });
  await expect(hooks.getByText(target)).toBeVisible();
  await expect(hooks.getByText('deal.created')).toBeVisible();
  await hooks.getByRole('button', { name: 'Delivery Log' }).click();
  await expect(hooks.getByText('No deliveries yet.')).toBeVisible();
  page.once('dialog', (dialog) => dialog.accept());
  await hooks.getByRole('button', { name: `Delete webhook ${target}` }).click();
  await expect(page.getByText('No webhooks yet.')).toBeVisible();
});
