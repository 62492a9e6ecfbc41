import { expect, type Page, test } from '@playwright/test';
import { waitForMail } from './mailbox.js';
import { passStaffGate } from './staff-second-factor.js';

function uniqueEmail(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function signIn(page: Page, email: string) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign In' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('covenant-demo');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('banner').getByText(email)).toBeVisible();
}

/** Counts the requests the page sends to an API path, to prove that refused input never left the browser. */
function countRequests(page: Page, path: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) count += 1;
  });
  return () => count;
}

test('the contact form refuses bad input field by field, sends good input, and staff answer it from the inbox', async ({
  page,
  request,
}) => {
  const sent = countRequests(page, '/api/v1/support/contact');
  const email = uniqueEmail('visitor');
  await page.goto('/contact');
  const form = page.getByRole('form', { name: 'Contact form' });
  await expect(form.getByRole('radio', { name: /Normal/ })).toBeChecked();
  await expect(form.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');

  await form.getByLabel('Email').fill('not an address');
  await form.getByLabel('Message', { exact: true }).fill('Too short');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(form.getByText('Enter your first name')).toBeVisible();
  await expect(form.getByText('Enter your last name')).toBeVisible();
  await expect(form.getByText('Enter a valid email address')).toBeVisible();
  await expect(form.getByText('Choose a subject')).toBeVisible();
  await expect(form.getByText('Tell us a little more (at least 20 characters)')).toBeVisible();
  await expect(form.getByText('Please agree to the Privacy Policy so we can answer you')).toBeVisible();
  await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  expect(sent()).toBe(0);

  // Corrected input goes through; what was typed before stays in place.
  await expect(form.getByLabel('Message', { exact: true })).toHaveValue('Too short');
  await form.getByLabel('First Name').fill('Ada');
  await form.getByLabel('Last Name').fill('Lovelace');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel(/Phone/).fill('+44 20 7946 0958');
  await form.getByLabel('Subject').selectOption({ label: 'Escrow' });
  await form.getByRole('radio', { name: /Urgent/ }).check();
  await form
    .getByLabel('Message', { exact: true })
    .fill('Our Bitcoin deposit shows one confirmation; when is the escrow funded?');
  await form.getByRole('checkbox').check();
  await form.getByRole('button', { name: 'Send Message' }).click();

  const receipt = page.getByRole('status').filter({ hasText: 'Message sent' });
  await expect(receipt).toBeVisible();
  const reference = (await receipt.locator('strong').textContent()) ?? '';
  expect(reference).toMatch(/^CNT-\d{4}-\d{6}$/);
  await expect(receipt).toContainText('aim to answer in under 1 hour');
  expect(sent()).toBe(1);

  const confirmation = await waitForMail(
    request,
    email,
    new RegExp(`\\[${reference}\\] We received your message`),
  );
  expect(confirmation.text).toContain('We aim to answer under 1 hour');

  // The demo admin finds the message in the inbox, answers it, and the answer reaches the sender.
  await signIn(page, 'admin@demo.covenant.test');
  await page.goto('/staff/inbox');
  await passStaffGate(page);
  await expect(page.getByRole('heading', { name: 'Support Inbox' })).toBeVisible();
  await page.getByLabel('Type').selectOption('contact');
  await page.getByRole('link', { name: new RegExp(reference) }).click();
  await expect(page.getByRole('heading', { name: 'Escrow', level: 1 })).toBeVisible();
  await expect(page.getByText('Our Bitcoin deposit shows one confirmation')).toBeVisible();
  await expect(page.getByText('Ada Lovelace')).toBeVisible();

  const answer = 'Hello Ada, Bitcoin deposits need two confirmations; yours will count in about ten minutes.';
  await page.getByLabel(/Reply to/).fill(answer);
  await page.getByRole('button', { name: 'Send Reply' }).click();
  await expect(page.getByText('Reply sent')).toBeVisible();
  await expect(page.getByRole('article').filter({ hasText: answer })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('in_progress');
  const reply = await waitForMail(request, email, new RegExp(`\\[${reference}\\] Re: Escrow`));
  expect(reply.text).toContain(answer);

  await page.getByLabel('Status').selectOption('resolved');
  await expect(page.getByText('Status updated')).toBeVisible();
  await page.getByRole('link', { name: 'Back to Inbox' }).click();
  await page.getByLabel('Status').selectOption('resolved');
  await expect(page.getByRole('link', { name: new RegExp(reference) })).toBeVisible();
});

test('the Help Center ticket form refuses bad input, then files a ticket linked to the signed-in user', async ({
  page,
  request,
}) => {
  const sent = countRequests(page, '/api/v1/support/tickets');
  await page.goto('/help-center');
  await page.getByRole('tab', { name: 'Contact Support' }).click();
  const form = page.getByRole('form', { name: 'Support ticket form' });
  await form.getByLabel('Subject').fill('Hi');
  await form.getByRole('button', { name: 'Submit Ticket' }).click();
  await expect(form.getByText('Enter a valid email address')).toBeVisible();
  await expect(form.getByText('Enter a subject (at least 5 characters)')).toBeVisible();
  await expect(form.getByText('Choose a category')).toBeVisible();
  await expect(form.getByText('Describe the problem (at least 20 characters)')).toBeVisible();
  expect(sent()).toBe(0);

  // Signed in, the address is the account's and the ticket is linked to it.
  await signIn(page, 'seller@demo.covenant.test');
  await page.goto('/help-center');
  await page.getByRole('tab', { name: 'Contact Support' }).click();
  await expect(form.getByLabel('Email')).toHaveValue('seller@demo.covenant.test');
  await form.getByLabel('Subject').fill('Payout address rejected');
  await form.getByLabel('Category').selectOption({ label: 'Trading Question' });
  await form
    .getByLabel('Description')
    .fill('The terms form refuses my Solana payout address although it is valid.');
  await form.getByRole('button', { name: 'Submit Ticket' }).click();
  const receipt = page.getByRole('status').filter({ hasText: 'Ticket created' });
  await expect(receipt).toBeVisible();
  const reference = (await receipt.locator('strong').textContent()) ?? '';
  expect(reference).toMatch(/^TKT-\d{4}-\d{6}$/);
  expect(sent()).toBe(1);
  const confirmation = await waitForMail(
    request,
    'seller@demo.covenant.test',
    new RegExp(`\\[${reference}\\] Support ticket received`),
  );
  expect(confirmation.text).toContain('Payout address rejected');
});

test('the inbox sends signed-out visitors to sign in and tells traders it is for staff', async ({ page }) => {
  await page.goto('/staff/inbox');
  await expect(page).toHaveURL(/\/auth$/);
  await signIn(page, 'buyer@demo.covenant.test');
  await page.goto('/staff/inbox');
  await expect(page.getByRole('heading', { name: '403 — Staff only' })).toBeVisible();
  await expect(page.getByText(/@example\.com/)).toHaveCount(0);
});
