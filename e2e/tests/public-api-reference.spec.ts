import { expect, test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './public-checks.js';

test('the API reference lists endpoints by group, shows code in JavaScript and Python, and documents webhooks', async ({
  page,
}) => {
  await page.goto('/api-reference');
  const main = page.getByRole('main');
  await expect(main.getByText(`${new URL(page.url()).origin}/api/v1`)).toBeVisible();

  const endpoints = page.getByRole('tabpanel', { name: 'Endpoints' });
  await expect(endpoints.getByText(/openapi\.json/)).toBeVisible();
  for (const group of ['Authentication', 'User', 'Trading', 'Escrow', 'Wallets']) {
    await expect(endpoints.getByRole('region', { name: group, exact: true })).toBeVisible();
  }
  // Rendered from the server's live OpenAPI document: operations beyond the documented list appear
  // (API keys), in groups after the five documented ones, and every documented endpoint is listed.
  await expect(endpoints.getByText(/From this server’s OpenAPI document/)).toBeVisible();
  await expect(
    endpoints.getByRole('region', { name: 'API keys' }).getByText('/api/v1/api-keys').first(),
  ).toBeVisible();
  const authentication = endpoints.getByRole('region', { name: 'Authentication', exact: true });
  await expect(authentication.getByText('/api/v1/auth/login', { exact: true })).toBeVisible();
  await expect(endpoints.getByText('/api/v1/escrow/fund', { exact: true })).toBeVisible();
  await expect(endpoints.getByText('/api/v1/wallets/connect', { exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Code Examples' }).click();
  const examples = page.getByRole('tabpanel', { name: 'Code Examples' });
  for (const title of ['1. Authenticate', '2. Create a deal', '3. Fund the escrow']) {
    await expect(examples.getByRole('heading', { name: title })).toBeVisible();
  }
  await expect(examples.getByText(/asset_amount: '1000000000'/)).toBeVisible();
  await page.getByRole('tab', { name: 'Python' }).click();
  await expect(examples.getByText(/"asset_amount": "1000000000"/)).toBeVisible();
  await expect(examples.getByText(/import requests/)).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByRole('tab', { name: 'Webhooks' }).click();
  const webhooks = page.getByRole('tabpanel', { name: 'Webhooks' });
  for (const event of ['deal.created', 'escrow.funded', 'deal.completed']) {
    await expect(webhooks.getByRole('heading', { name: event })).toBeVisible();
  }
  await expect(webhooks.getByText(/"settlement_transactions"/)).toBeVisible();
  await expect(webhooks.getByText(/"type": "escrow.funded"/)).toBeVisible();
  await expect(webhooks.getByText('Covenant-Signature: t=<unix time>,v1=<hex>')).toBeVisible();
  await expect(webhooks.getByText(/timingSafeEqual/)).toBeVisible();
  await expect(webhooks.getByText(/hmac\.compare_digest/)).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

test('the webhook verification shown on the page accepts a correct signature and refuses a forged one', async ({
  page,
}) => {
  await page.goto('/api-reference');
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  const code = await page.getByRole('region', { name: 'Signature verification in JavaScript' }).innerText();

  // Run the published JavaScript as a reader would, against a signature made the documented way.
  const { createHmac } = await import('node:crypto');
  const module = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  const secret = 'whsec_test';
  const body = '{"id":"4d1c7a2e","type":"deal.created","data":{"deal_id":"0c6d2f4a"}}';
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  expect(module.verifyCovenantSignature(body, `t=${t},v1=${v1}`, secret)).toBe(true);
  expect(module.verifyCovenantSignature(`${body} `, `t=${t},v1=${v1}`, secret)).toBe(false);
  expect(module.verifyCovenantSignature(body, `t=${t - 3600},v1=${v1}`, secret)).toBe(false);
  expect(module.verifyCovenantSignature(body, `t=${t},v1=${v1}`, 'other-secret')).toBe(false);
});
