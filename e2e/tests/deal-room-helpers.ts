import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type Browser, expect, type Locator, type Page } from '@playwright/test';

/** The demo accounts' password (the server seeds them at start). */
export const demoPassword = 'covenant-demo';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

/** Signs `email` in, in a browser context of its own, and waits until the app has left the sign-in page. */
export async function signInOwnBrowser(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  return page;
}

/** Signs `email` in on `page` (a context the caller set up), and waits until the app has left the sign-in page. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(demoPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/auth$/);
}

/** Uploads a Customer Information Sheet (the PDF is optional: none) from the CIS Documents tab of /trading. */
export async function uploadCis(page: Page, legalName: string): Promise<void> {
  await page.goto('/trading');
  await page.getByRole('tab', { name: 'CIS Documents' }).click();
  await page.getByRole('button', { name: 'Upload CIS' }).click();
  const form = page.getByRole('form', { name: 'Customer Information Sheet' });
  await form.getByLabel('Legal name').fill(legalName);
  await form.getByLabel('Entity type').selectOption('company');
  await form.getByLabel('Jurisdiction').selectOption({ label: 'Switzerland' });
  await form.getByLabel('Source of funds').fill('Retained trading profits');
  await form.locator('input[name="assets"][value="ETH"]').check();
  await form.getByLabel('Minimum trade size (USD)').fill('100000');
  await form.getByLabel('Maximum trade size (USD)').fill('1000000');
  await form.locator('input[name="preferred_chains"][value="ETH"]').check();
  await form.getByLabel('Settlement window (hours)').fill('72');
  await form.getByRole('button', { name: 'Save CIS' }).click();
  await expect(page.getByTestId('cis-sheet').filter({ hasText: legalName })).toBeVisible();
}

/** The value shown under a label of the deal page's details card ("Status", "Deal ID", ...). */
export function dealField(page: Page, label: string): Locator {
  return page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd');
}

/** The deal page's step marked as current in the "Next step" card. */
export function currentStep(page: Page): Locator {
  return page.getByRole('list', { name: 'Deal steps' }).locator('[aria-current="step"]');
}

/** A card of the deal page, found by its heading ("CIS exchange", "Terms", "Messages", ...). */
export function dealCard(page: Page, heading: string): Locator {
  return page.getByRole('heading', { name: heading, exact: true, level: 2 }).locator('..');
}

/**
 * Marks the page's current document, so a test can later prove the page was never reloaded: what it
 * shows since then came through the deal's live updates.
 */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => document.documentElement.setAttribute('data-e2e-document', 'kept'));
}

export async function expectSameDocument(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-e2e-document', 'kept');
}

/** A random lowercase Ethereum address (all one case carries no checksum and is valid). */
export function randomEthereumAddress(): string {
  const hex = Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');
  return `0x${hex.replace(/^0/, '1')}`;
}

/** The access token the SPA keeps for its session (read from the page's localStorage). */
export async function accessTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const stored = localStorage.getItem('covenant-auth-token');
    return stored ? (JSON.parse(stored) as { access_token?: string }).access_token : undefined;
  });
  if (!token) throw new Error('the page keeps no session');
  return token;
}

/**
 * Checks the deal page's audit card says the chain is intact, downloads the JSON export through its
 * button, and runs the project's offline check on the file (`npx covenant verify-audit`, exit 0).
 */
export async function expectAuditVerifies(page: Page): Promise<void> {
  const card = dealCard(page, 'Audit trail');
  await expect(card.getByRole('status')).toContainText(/Verified — \d+ entries, chain intact/);
  const downloading = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download audit trail (JSON)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^deal-[0-9a-f-]+-audit\.json$/);
  const directory = await mkdtemp(path.join(tmpdir(), 'covenant-audit-'));
  try {
    const file = path.join(directory, download.suggestedFilename());
    await download.saveAs(file);
    // execFile rejects on a non-zero exit, so reaching the next line means exit 0.
    const { stdout } = await run('npx', ['covenant', 'verify-audit', file], { cwd: repoRoot });
    expect(stdout).toMatch(/verified: \d+ entries, chain intact/);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The create-trade form's choices: amounts as typed (decimal text), both legs' chain and symbol. */
export interface TradeInput {
  assetChain: string;
  assetSymbol: string;
  assetAmount: string;
  stableChain: string;
  stableSymbol: string;
  stableAmount: string;
}

/** The buyer creates a deal with the demo seller through the Create Trade form; returns the deal's id. */
export async function createDealWithDemoSeller(buyer: Page, trade: TradeInput): Promise<string> {
  await buyer.goto('/trading');
  await buyer.getByRole('tab', { name: 'Create Trade' }).click();
  const form = buyer.getByRole('form', { name: 'Create Trade' });
  await form.getByLabel('Asset Chain').selectOption(trade.assetChain);
  await form.getByLabel('Asset Symbol').selectOption(trade.assetSymbol);
  await form.getByLabel('Asset Amount').fill(trade.assetAmount);
  await form.getByLabel('Stable Chain').selectOption(trade.stableChain);
  await form.getByLabel('Stable Symbol').selectOption(trade.stableSymbol);
  await form.getByLabel('Stable Amount').fill(trade.stableAmount);
  await form.getByLabel('Trading Partner').selectOption({ label: 'demo_seller (Enhanced Tier)' });
  const created = buyer.waitForResponse(
    (response) => response.url().endsWith('/api/v1/deals') && response.request().method() === 'POST',
  );
  await form.getByRole('button', { name: 'Create Trade', exact: true }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** Opens the deal's page and marks the document (see `markDocument`). */
export async function openDealPage(page: Page, dealId: string): Promise<void> {
  await page.goto(`/trading/deals/${dealId}`);
  await expect(dealField(page, 'Deal ID')).toHaveText(dealId);
  await markDocument(page);
}

/**
 * CIS exchanged and approved both ways, each party's payout and refund addresses set (on whichever
 * chains the legs are: the form names one payout and one refund address), and the seller accepting
 * the buyer's version 1.
 */
export async function agreeTerms(
  buyer: Page,
  seller: Page,
  addresses: Record<'buyer' | 'seller', { payout: string; refund: string }>,
): Promise<void> {
  await buyer.getByRole('region', { name: 'Your CIS' }).getByRole('button', { name: 'Attach CIS' }).click();
  await seller.getByRole('region', { name: 'Your CIS' }).getByRole('button', { name: 'Attach CIS' }).click();
  await seller
    .getByRole('region', { name: "demo_buyer's CIS" })
    .getByRole('button', { name: 'Approve', exact: true })
    .click();
  await buyer
    .getByRole('region', { name: "demo_seller's CIS" })
    .getByRole('button', { name: 'Approve', exact: true })
    .click();
  for (const page of [buyer, seller]) {
    await expect(dealField(page, 'Status')).toHaveText('CIS Submitted');
  }
  for (const [page, party] of [
    [buyer, 'buyer'],
    [seller, 'seller'],
  ] as const) {
    const form = page.getByRole('form', { name: 'Your addresses' });
    await form.getByLabel(/^Payout address \(/).fill(addresses[party].payout);
    await form.getByLabel(/^Refund address \(/).fill(addresses[party].refund);
    await form.getByRole('button', { name: 'Save addresses' }).click();
  }
  await expect(seller.getByRole('region', { name: "demo_buyer's addresses" })).toContainText(
    addresses.buyer.payout,
  );
  await seller.getByRole('button', { name: 'Accept version 1' }).click();
  for (const page of [buyer, seller]) {
    await expect(dealField(page, 'Status')).toHaveText('Terms Agreed');
  }
}
