import { type Browser, expect, type Page, test } from '@playwright/test';
import { linkIn, waitForMail } from './mailbox.js';
import { passStaffGate } from './staff-second-factor.js';

// A 1×1 PNG, the smallest real identity "scan".
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function signIn(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/trading$/);
  return page;
}

test('a new trader submits KYC, compliance approves it with Enhanced, and the trading page shows it', async ({
  browser,
  request,
}) => {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `kyc.${stamp}@example.com`;
  const password = 'Vault-Ledger-4417';
  const legalName = `Kira Example ${stamp}`;

  // Sign up and confirm the address from the mailbox.
  const trader = await (await browser.newContext()).newPage();
  await trader.goto('/auth');
  await trader.getByRole('tab', { name: 'Sign Up' }).click();
  await trader.getByLabel('First Name').fill('Kira');
  await trader.getByLabel('Last Name').fill('Example');
  await trader.getByLabel('Username').fill(`kira${stamp}`);
  await trader.getByLabel('Email').fill(email);
  await trader.getByLabel('Password', { exact: true }).fill(password);
  await trader.getByLabel('Confirm Password').fill(password);
  await trader.getByRole('button', { name: 'Create Account' }).click();
  await expect(trader.getByText('Registration Successful!')).toBeVisible();
  await trader.goto(linkIn(await waitForMail(request, email, /confirm/i), '/auth/v1/verify'));
  await expect(trader.getByRole('banner').getByText(email)).toBeVisible();

  // Unverified: the badge leads to the verification page.
  await trader.goto('/trading');
  const status = trader.getByRole('list', { name: 'Account status' });
  await status.getByRole('link', { name: 'Verification Pending' }).click();
  await expect(trader).toHaveURL(/\/kyc$/);
  await expect(trader.getByRole('heading', { level: 1, name: 'Verification' })).toBeVisible();

  const form = trader.getByRole('form', { name: 'Verification form' });
  await form.getByLabel('Full legal name').fill(legalName);
  await form.getByLabel('Country (ISO code, e.g. DE)').fill('de');
  await form.getByLabel('Date of birth').fill('1990-06-01');
  await form.getByLabel('City of birth').fill('Hamburg');
  await form.getByLabel('Country of birth (ISO code, e.g. DE)').fill('de');
  await form.getByLabel('Residential address').fill('Hauptstraße 1, 10115 Berlin');
  await form.getByLabel('Town or city').fill('Berlin');
  await form.getByLabel('Requested tier').selectOption('enhanced');
  // Without documents the form says what is missing and sends nothing.
  await form.getByRole('button', { name: 'Submit for Verification' }).click();
  await expect(form.getByText('Attach between 1 and 5 documents')).toBeVisible();

  await form
    .getByLabel('Documents')
    .setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: png });
  await form.getByRole('button', { name: 'Submit for Verification' }).click();
  await expect(trader.getByText('Verification submitted')).toBeVisible();
  const latest = trader.getByRole('region', { name: 'Latest verification request' });
  await expect(latest.getByText('Under review')).toBeVisible();
  await expect(latest.getByText(/Your request for the Enhanced tier/)).toBeVisible();

  // Compliance (the demo admin) reviews the request, looks at the document and approves it.
  const officer = await signIn(browser, 'admin@demo.covenant.test', 'covenant-demo');
  await officer.goto('/staff/kyc');
  // Staff pages want a second factor: the code of the demo authenticator.
  await passStaffGate(officer);
  await expect(officer.getByRole('heading', { level: 1, name: 'KYC Review' })).toBeVisible();
  await officer.getByRole('button', { name: new RegExp(legalName) }).click();
  const details = officer.getByRole('region', { name: `Submission of ${legalName}` });
  await expect(details.getByText(email)).toBeVisible();
  await expect(details.getByText('Hamburg, DE')).toBeVisible();
  await expect(details.getByText('Berlin', { exact: true })).toBeVisible();
  await details.getByRole('button', { name: 'View passport.png' }).click();
  await expect(details.getByRole('img', { name: 'Document passport.png' })).toBeVisible();
  await expect(details.getByLabel('Tier')).toHaveValue('enhanced');
  await details.getByRole('button', { name: 'Approve' }).click();
  await expect(officer.getByText('Verification approved')).toBeVisible();

  // The trader is told by e-mail, and the trading page shows the new status.
  const approval = await waitForMail(request, email, /verification is approved/);
  expect(approval.text).toContain('Enhanced tier, with a limit of $100,000 per transaction');
  await trader.goto('/trading');
  await expect(status.getByText('Verified', { exact: true })).toBeVisible();
  await expect(status.getByText('Enhanced Tier')).toBeVisible();
  await expect(status.getByText('KYC Complete')).toBeVisible();

  await trader.goto('/kyc');
  await expect(latest.getByText('Approved')).toBeVisible();
  await expect(
    latest.getByText(/Verified at the Enhanced tier, up to \$100,000 per transaction/),
  ).toBeVisible();
});

test('a trader cannot open the compliance console', async ({ browser }) => {
  const page = await signIn(browser, 'buyer@demo.covenant.test', 'covenant-demo');
  await page.goto('/staff/kyc');
  await expect(page.getByRole('heading', { name: '403 — Staff only' })).toBeVisible();
});
