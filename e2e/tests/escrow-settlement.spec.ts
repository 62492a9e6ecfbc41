import { type Browser, expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { longSessionURL } from '../playwright.config.js';
import {
  agreeTerms,
  createDealWithDemoSeller,
  dealField,
  expectSameDocument,
  openDealPage,
  randomEthereumAddress,
  signInOwnBrowser,
  uploadCis,
} from './deal-room-helpers.js';
import { createEscrowKey, ethereumDevnet, recordReleaseRequests, tokenBalance } from './escrow-helpers.js';

// Two browsers stay on one deal while it is funded and settled: a one-hour access token keeps it simple.
test.use({ baseURL: longSessionURL });

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000)}`;

/**
 * 1.234567890123456789 WETH (18 decimals) for 2500.123457 USDT (6 decimals): $2,500 is well within the
 * demo traders' Enhanced tier ($100,000), and neither amount is a multiple of 10 000 base units, so the
 * fee's rounding down shows in the last digit.
 */
const trade = {
  assetChain: 'ETH',
  assetSymbol: 'WETH',
  assetAmount: '1.234567890123456789',
  stableChain: 'ETH',
  stableSymbol: 'USDT',
  stableAmount: '2500.123457',
} as const;

// The fee is 1 basis point of each leg, rounded down to the base unit (DESIGN §4):
//   asset  1 234 567 890 123 456 789 wei WETH: fee floor(/10 000) = 123 456 789 012 345,
//          buyer receives 1 234 567 890 123 456 789 − 123 456 789 012 345 = 1 234 444 433 334 444 444
//   stable 2 500 123 457 USDT units:        fee floor(/10 000) = 250 012,
//          seller receives 2 500 123 457 − 250 012 = 2 499 873 445
const asset = 1_234_567_890_123_456_789n;
const stable = 2_500_123_457n;
const assetFee = 123_456_789_012_345n;
const stableFee = 250_012n;
const buyerReceives = 1_234_444_433_334_444_444n;
const sellerReceives = 2_499_873_445n;

const escrowPasswords = { buyer: `buyer escrow ${run}`, seller: `seller escrow ${run}` };

async function signInTraders(browser: Browser): Promise<{ buyer: Page; seller: Page }> {
  const buyer = await signInOwnBrowser(browser, 'buyer@demo.covenant.test');
  const seller = await signInOwnBrowser(browser, 'seller@demo.covenant.test');
  return { buyer, seller };
}

/** The escrow card of the deal page. */
function escrowCard(page: Page) {
  return page.getByRole('region', { name: 'Escrow', exact: true });
}

test('two traders fund and settle a WETH-for-USDT escrow from their browsers, paid to the base unit', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const devnet = await ethereumDevnet(request);
  const feeBefore = {
    WETH: await tokenBalance(devnet, 'WETH', devnet.feeAddress),
    USDT: await tokenBalance(devnet, 'USDT', devnet.feeAddress),
  };
  // Fresh payout addresses: whatever they hold afterwards came from this deal's escrow.
  const payouts = {
    buyer: privateKeyToAccount(generatePrivateKey()).address,
    seller: privateKeyToAccount(generatePrivateKey()).address,
  };
  expect(await tokenBalance(devnet, 'WETH', payouts.buyer)).toBe(0n);
  expect(await tokenBalance(devnet, 'USDT', payouts.seller)).toBe(0n);

  // 1. Each trader creates an escrow key in their own browser and uploads a CIS.
  const { buyer, seller } = await signInTraders(browser);
  await createEscrowKey(buyer, escrowPasswords.buyer);
  await createEscrowKey(seller, escrowPasswords.seller);
  await uploadCis(buyer, `Demo Buyer Holdings ${run}`);
  await uploadCis(seller, `Demo Seller Trading ${run}`);

  // 2. The buyer creates the deal; CIS, addresses and terms are agreed on its page.
  const dealId = await createDealWithDemoSeller(buyer, trade);
  await openDealPage(buyer, dealId);
  await openDealPage(seller, dealId);
  await agreeTerms(buyer, seller, {
    buyer: { payout: payouts.buyer, refund: randomEthereumAddress() },
    seller: { payout: payouts.seller, refund: randomEthereumAddress() },
  });

  // The Travel Rule applies ($2,500 ≥ $1,000): before the escrow opens each trader sees what it sends.
  const travelRule = (page: Page) => page.getByRole('region', { name: 'Travel Rule', exact: true });
  await expect(travelRule(buyer)).toContainText('Bea Buyer');
  await expect(travelRule(buyer)).toContainText('Friedrichstrasse 43, 10117 Berlin, DE');
  await expect(travelRule(buyer)).toContainText('Town or city: Berlin');
  await expect(travelRule(buyer)).toContainText('Born 1984-05-17 in Hamburg, DE');
  await expect(travelRule(seller)).toContainText('Sol Seller Trading AG');
  await expect(travelRule(seller)).toContainText(
    'National identifier (RAID, registration authority RA000548): CHE-123.456.789',
  );

  // 3. The buyer opens the escrow; the seller's page shows its legs without a reload.
  await escrowCard(buyer).getByRole('button', { name: 'Open escrow' }).click();
  const assetLeg = (page: Page, who: string) =>
    escrowCard(page).getByRole('region', { name: `Asset leg: ${who}` });
  const stableLeg = (page: Page, who: string) =>
    escrowCard(page).getByRole('region', { name: `Stablecoin leg: ${who}` });
  await expect(assetLeg(seller, 'You deposit')).toContainText('1.234567890123456789 WETH');
  // Both parties' originator and beneficiary details were exchanged as it opened.
  await expect(travelRule(seller)).toContainText('Originator (seller): Sol Seller Trading AG');
  await expect(travelRule(seller)).toContainText('Beneficiary (buyer): Bea Buyer');
  await expect(stableLeg(buyer, 'You deposit')).toContainText('2500.123457 USDT');
  // Only the depositor of a leg may fund it from the devnet wallet.
  for (const page of [buyer, seller]) {
    await expect(escrowCard(page).getByRole('button', { name: 'Fund from devnet wallet' })).toHaveCount(1);
  }
  await expect(
    assetLeg(buyer, 'demo_seller deposits').getByRole('button', { name: 'Fund from devnet wallet' }),
  ).toHaveCount(0);

  const deposits = {
    asset: (await assetLeg(seller, 'You deposit').locator('code').first().textContent()) ?? '',
    stable: (await stableLeg(buyer, 'You deposit').locator('code').first().textContent()) ?? '',
  };
  expect(deposits.asset).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(deposits.stable).toMatch(/^0x[0-9a-fA-F]{40}$/);

  // 4. Each funds their own leg from the devnet wallet; both pages see both legs funded, live.
  await assetLeg(seller, 'You deposit').getByRole('button', { name: 'Fund from devnet wallet' }).click();
  await stableLeg(buyer, 'You deposit').getByRole('button', { name: 'Fund from devnet wallet' }).click();
  const legStates = (page: Page) => escrowCard(page).getByText('Funded', { exact: true });
  await expect(legStates(buyer)).toHaveCount(2, { timeout: 30_000 });
  await expect(legStates(seller)).toHaveCount(2, { timeout: 30_000 });

  // 5. A wrong escrow password is refused in the browser, and nothing is signed or sent.
  const buyerReleases = recordReleaseRequests(buyer);
  const sellerReleases = recordReleaseRequests(seller);
  const buyerConfirm = escrowCard(buyer).getByRole('region', { name: 'Confirm settlement' });
  const sellerConfirm = escrowCard(seller).getByRole('region', { name: 'Confirm settlement' });
  await buyerConfirm.getByLabel('Escrow password', { exact: true }).fill(`not the password ${run}`);
  await buyerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();
  await expect(buyerConfirm.getByText('That escrow password is not right.')).toBeVisible();
  await expect(buyerConfirm.getByRole('button', { name: 'Confirm settlement' })).toBeEnabled();
  expect(buyerReleases).toEqual([]);

  // 6. Each confirms the payout of the leg they gave, with their escrow password.
  await buyerConfirm.getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.buyer);
  await buyerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();
  await expect(escrowCard(buyer).getByText('Waiting for demo_seller to confirm')).toBeVisible();
  expect(buyerReleases).toHaveLength(1);
  await sellerConfirm.getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.seller);
  await sellerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();

  // 7. Both pages reach the completed view with each leg's transaction, without a reload.
  const hashes: string[] = [];
  for (const page of [buyer, seller]) {
    await expect(escrowCard(page).getByText('The escrow is settled.')).toBeVisible({ timeout: 30_000 });
    await expect(dealField(page, 'Status')).toHaveText('Completed');
    for (const name of ['Asset leg', 'Stablecoin leg']) {
      const leg = escrowCard(page).getByRole('region', { name, exact: true });
      await expect(leg.getByText('Released', { exact: true })).toBeVisible();
      const hash = (await leg.locator('code').first().textContent()) ?? '';
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
      hashes.push(hash);
    }
    await expectSameDocument(page);
  }
  expect(sellerReleases).toHaveLength(1);
  expect(hashes.slice(2)).toEqual(hashes.slice(0, 2));
  for (const hash of hashes.slice(0, 2)) {
    const receipt = await devnet.client.getTransactionReceipt({ hash: hash as `0x${string}` });
    expect(receipt.status).toBe('success');
  }

  // 8. On-chain, to the base unit: each payout minus its fee, and the fee address got exactly the fees.
  expect(await tokenBalance(devnet, 'WETH', payouts.buyer)).toBe(buyerReceives);
  expect(await tokenBalance(devnet, 'USDT', payouts.seller)).toBe(sellerReceives);
  expect((await tokenBalance(devnet, 'WETH', devnet.feeAddress)) - feeBefore.WETH).toBe(assetFee);
  expect((await tokenBalance(devnet, 'USDT', devnet.feeAddress)) - feeBefore.USDT).toBe(stableFee);
  // Nothing stays behind in either escrow.
  expect(await tokenBalance(devnet, 'WETH', deposits.asset)).toBe(0n);
  expect(await tokenBalance(devnet, 'USDT', deposits.stable)).toBe(0n);
  expect(buyerReceives + assetFee).toBe(asset);
  expect(sellerReceives + stableFee).toBe(stable);
});
