import { type Browser, expect, type Page, test } from '@playwright/test';
import { longSessionURL } from '../playwright.config.js';
import {
  accessTokenOf,
  createDealWithDemoSeller,
  currentStep,
  dealCard,
  dealField,
  expectAuditVerifies,
  expectSameDocument,
  openDealPage,
  randomEthereumAddress,
  signInOwnBrowser,
  uploadCis,
} from './deal-room-helpers.js';
import { passStaffGate } from './staff-second-factor.js';

// Two browsers stay open on one deal for minutes: a one-hour access token keeps their streams simple.
test.use({ baseURL: longSessionURL });

/** Each run's names and amounts are its own, so nothing depends on what an earlier run left. */
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000)}`;

/** The buyer creates a WBTC-for-USDT deal on Ethereum with the demo seller; returns the deal's id. */
function createEthereumDeal(buyer: Page, assetAmount: string, stableAmount: string): Promise<string> {
  return createDealWithDemoSeller(buyer, {
    assetChain: 'ETH',
    assetSymbol: 'WBTC',
    assetAmount,
    stableChain: 'ETH',
    stableSymbol: 'USDT',
    stableAmount,
  });
}

async function signInTraders(browser: Browser): Promise<{ buyer: Page; seller: Page }> {
  const buyer = await signInOwnBrowser(browser, 'buyer@demo.covenant.test');
  const seller = await signInOwnBrowser(browser, 'seller@demo.covenant.test');
  return { buyer, seller };
}

test('two traders exchange CIS and counter-proposed terms live, and the demo mediator decides their dispute', async ({
  browser,
}) => {
  // The staff gate may wait up to 30 s for a fresh authenticator code.
  test.setTimeout(150_000);
  const { buyer, seller } = await signInTraders(browser);
  const buyerSheet = `Demo Buyer Holdings ${run}`;
  const correctedSheet = `Demo Buyer Holdings AG ${run}`;
  const sellerSheet = `Demo Seller Trading ${run}`;
  await uploadCis(buyer, buyerSheet);
  await uploadCis(seller, sellerSheet);

  // 1. The buyer creates the deal; both open its page.
  const digits = String(1_000 + Math.floor(Math.random() * 8_999)).replace(/0$/, '1');
  const assetAmount = `0.5${digits}`;
  const dealId = await createEthereumDeal(buyer, assetAmount, '30000');
  await openDealPage(buyer, dealId);
  await openDealPage(seller, dealId);
  for (const page of [buyer, seller]) {
    await expect(dealField(page, 'Status')).toHaveText('Draft');
    await expect(currentStep(page)).toContainText('Exchange CIS');
  }

  // 2. CIS exchange: each attaches a sheet, and sees the other's once its own is attached (ADR 022),
  // without reloading.
  const buyerOwn = buyer.getByRole('region', { name: 'Your CIS' });
  const sellerOwn = seller.getByRole('region', { name: 'Your CIS' });
  const buyerSeenBySeller = seller.getByRole('region', { name: "demo_buyer's CIS" });
  const sellerSeenByBuyer = buyer.getByRole('region', { name: "demo_seller's CIS" });

  await buyerOwn.getByRole('button', { name: 'Attach CIS' }).click();
  await expect(buyerOwn).toContainText(buyerSheet);
  await expect(sellerSeenByBuyer).toContainText('demo_seller has not attached a CIS yet.');
  await expect(buyerSeenBySeller).toContainText("demo_buyer's CIS is shown here once you attach yours.");
  await expect(buyerSeenBySeller).not.toContainText(buyerSheet);

  await sellerOwn.getByRole('button', { name: 'Attach CIS' }).click();
  await expect(buyerSeenBySeller).toContainText(buyerSheet);
  await expect(buyerSeenBySeller).toContainText('Awaiting review');
  await expect(sellerSeenByBuyer).toContainText(sellerSheet);

  // The seller rejects the buyer's sheet with a comment; the buyer reads it live.
  const comment = `The legal name must match the register (${run})`;
  await buyerSeenBySeller.getByLabel('Reason for rejecting').fill(comment);
  await buyerSeenBySeller.getByRole('button', { name: 'Reject' }).click();
  await expect(buyerOwn.getByText('Rejected', { exact: true })).toBeVisible();
  await expect(buyerOwn).toContainText(`Comment: ${comment}`);
  await expect(buyer.getByText('Your CIS was rejected: attach a corrected one.')).toBeVisible();

  // The buyer uploads a corrected sheet and attaches it in place of the rejected one.
  await uploadCis(buyer, correctedSheet);
  await openDealPage(buyer, dealId);
  const replacement = buyerOwn.getByLabel('Replace with');
  const corrected = await replacement.locator('option', { hasText: correctedSheet }).getAttribute('value');
  await replacement.selectOption(corrected ?? '');
  await buyerOwn.getByRole('button', { name: 'Replace CIS' }).click();
  await expect(buyerSeenBySeller).toContainText(correctedSheet);
  await expect(buyerSeenBySeller.getByText('Awaiting review', { exact: true })).toBeVisible();

  // Both approve; both pages move on to agreeing the terms.
  await buyerSeenBySeller.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(buyerOwn.getByText('Approved', { exact: true })).toBeVisible();
  await sellerSeenByBuyer.getByRole('button', { name: 'Approve', exact: true }).click();
  for (const page of [buyer, seller]) {
    await expect(page.getByText('Both CIS approved')).toBeVisible();
    await expect(currentStep(page)).toContainText('Agree terms');
    await expect(dealField(page, 'Status')).toHaveText('CIS Submitted');
  }

  // 3. Terms: both set their Ethereum addresses and see the other's.
  const addresses = {
    buyer: { payout: randomEthereumAddress(), refund: randomEthereumAddress() },
    seller: { payout: randomEthereumAddress(), refund: randomEthereumAddress() },
  };
  for (const [page, party] of [
    [buyer, 'buyer'],
    [seller, 'seller'],
  ] as const) {
    const form = page.getByRole('form', { name: 'Your addresses' });
    await form.getByLabel(/^Payout address \(ETH\)/).fill(addresses[party].payout);
    await form.getByLabel(/^Refund address \(ETH\)/).fill(addresses[party].refund);
    await form.getByRole('button', { name: 'Save addresses' }).click();
  }
  await expect(seller.getByRole('region', { name: "demo_buyer's addresses" })).toContainText(
    addresses.buyer.payout,
  );
  await expect(buyer.getByRole('region', { name: "demo_seller's addresses" })).toContainText(
    addresses.seller.refund,
  );

  // The seller counter-proposes a lower price and a longer funding deadline.
  const sellerTerms = dealCard(seller, 'Terms');
  await sellerTerms.getByRole('button', { name: 'Counter-propose' }).click();
  const counter = seller.getByRole('form', { name: 'Counter-proposal' });
  await counter.getByLabel('Stable Amount').fill('29500.25');
  await counter.getByLabel('Funding deadline (hours, 1–168)').fill('48');
  await counter.getByRole('button', { name: 'Send proposal' }).click();
  await expect(sellerTerms.getByRole('heading', { name: 'Current proposal — version 2' })).toBeVisible();

  // The buyer sees version 2 live and accepts exactly it.
  const buyerTerms = dealCard(buyer, 'Terms');
  await expect(buyerTerms.getByRole('heading', { name: 'Current proposal — version 2' })).toBeVisible();
  await expect(buyerTerms).toContainText('Proposed by demo_seller');
  await expect(buyerTerms).toContainText('29500.25 USDT on ETH');
  await expect(buyerTerms).toContainText('48 hours after agreement');
  await buyerTerms.getByRole('button', { name: 'Accept version 2' }).click();
  const hashes: string[] = [];
  for (const page of [buyer, seller]) {
    const terms = dealCard(page, 'Terms');
    await expect(terms.getByText('Terms agreed — version 2')).toBeVisible();
    await expect(dealField(page, 'Status')).toHaveText('Terms Agreed');
    await expect(currentStep(page)).toContainText('Fund escrow');
    hashes.push((await terms.locator('code').first().textContent()) ?? '');
  }
  expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
  expect(hashes[1]).toBe(hashes[0]);

  // 4. Messages: the seller reads the buyer's message without reloading.
  const message = `Funding the WBTC leg tomorrow morning (${run})`;
  const buyerMessages = dealCard(buyer, 'Messages');
  await buyerMessages.getByLabel('Message', { exact: true }).fill(message);
  await buyerMessages.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(buyerMessages.getByRole('list', { name: 'Messages' })).toContainText(message);
  await expect(dealCard(seller, 'Messages').getByRole('list', { name: 'Messages' })).toContainText(message);

  // 5. Dispute: the buyer opens one with evidence; both pages show it.
  const reason = `The seller asks for a different USDT address off the platform (${run})`;
  const buyerDispute = dealCard(buyer, 'Dispute');
  await buyerDispute.getByRole('button', { name: 'Open a dispute' }).click();
  await buyerDispute.getByLabel('Reason', { exact: true }).fill(reason);
  await buyerDispute.getByLabel(/^Evidence/).setInputFiles({
    name: 'chat-export.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.7\n%%EOF\n'),
  });
  await buyerDispute.getByRole('button', { name: 'Continue', exact: true }).click();
  await buyerDispute.getByRole('button', { name: 'Open the dispute' }).click();
  for (const page of [buyer, seller]) {
    await expect(dealField(page, 'Status')).toHaveText('Disputed');
    const dispute = dealCard(page, 'Dispute');
    await expect(dispute.getByText('A mediator is reviewing this deal')).toBeVisible();
    await expect(dispute).toContainText(reason);
  }

  // The demo mediator passes the second factor, takes the case and decides a split, which cancels
  // the deal: its escrow was never opened.
  const mediator = await signInOwnBrowser(browser, 'mediator@demo.covenant.test');
  await mediator.goto('/staff/disputes');
  await passStaffGate(mediator);
  await mediator.getByRole('link', { name: `${assetAmount} WBTC for 29500.25 USDT` }).click();
  await expect(mediator.getByRole('heading', { name: 'Dispute', level: 1 })).toBeVisible();
  const caseDeal = mediator.getByRole('region', { name: 'Deal', exact: true });
  await expect(caseDeal).toContainText(dealId);
  await expect(caseDeal).toContainText(reason);
  const decision = mediator.getByRole('region', { name: 'Decision' });
  await decision.getByRole('button', { name: 'Take this case' }).click();
  // Disputed before its escrow opened: the form says up front that any decision cancels the deal.
  await expect(decision.getByRole('note')).toContainText(
    'This deal’s escrow was never opened, so nothing was deposited: any decision cancels the deal and no money moves.',
  );
  await decision.getByRole('radio', { name: /^Split/ }).check();
  await decision.getByLabel('WBTC to the buyer').fill('0.5');
  await decision.getByLabel('WBTC to the seller').fill(`0.0${digits}`);
  await decision.getByLabel('USDT to the buyer').fill('9500.25');
  await decision.getByLabel('USDT to the seller').fill('20000');
  const rationale = `Both parties share the cost of the failed off-platform request (${run})`;
  await decision.getByLabel('Rationale (the parties read it)').fill(rationale);
  await decision.getByRole('button', { name: 'Review the decision' }).click();
  await decision.getByRole('button', { name: 'Record the decision' }).click();
  await expect(decision).toContainText(rationale);
  const cancelled =
    'The decision cancelled the deal: it was disputed before its escrow opened, so nothing was deposited and no money moved.';
  await expect(decision).toContainText(cancelled);

  // Both traders read the decision live: it cancelled the deal, and no amounts move.
  for (const page of [buyer, seller]) {
    const dispute = dealCard(page, 'Dispute');
    await expect(dispute.getByText('Decision: Split by the mediator')).toBeVisible();
    await expect(dispute).toContainText(rationale);
    await expect(dispute).toContainText(cancelled);
    await expect(dispute.getByRole('table')).toHaveCount(0);
    await expect(dealField(page, 'Status')).toHaveText('Cancelled');
  }

  // Everything above reached each page through its live updates: neither was reloaded.
  await expectSameDocument(buyer);
  await expectSameDocument(seller);

  // 7. The deal's audit trail verifies on the page and offline.
  await expectAuditVerifies(buyer);
  await expectAuditVerifies(seller);
});

test('the seller cancels a deal, the buyer sees it closed live, and the server refuses any change', async ({
  browser,
}) => {
  const { buyer, seller } = await signInTraders(browser);
  const dealId = await createEthereumDeal(buyer, '1.25', '75000');
  await openDealPage(buyer, dealId);
  await openDealPage(seller, dealId);
  await expect(buyer.getByRole('button', { name: 'Revise proposal' })).toBeEnabled();

  // 6. The seller cancels with a reason, after a confirm step.
  const sellerCancel = dealCard(seller, 'Cancel this deal');
  await sellerCancel.getByRole('button', { name: 'Cancel deal' }).click();
  await sellerCancel.getByLabel('Reason for cancelling').fill(`The price moved too far (${run})`);
  await sellerCancel.getByRole('button', { name: 'Continue' }).click();
  await sellerCancel.getByRole('button', { name: 'Yes, cancel the deal' }).click();
  await expect(dealField(seller, 'Status')).toHaveText('Cancelled');

  // The buyer's page closes the deal without a reload, and offers nothing more to do.
  await expect(dealField(buyer, 'Status')).toHaveText('Cancelled');
  await expect(buyer.getByText('This deal is cancelled and can no longer change.')).toBeVisible();
  await expect(buyer.getByText('This deal is cancelled: no new messages can be posted.')).toBeVisible();
  const actions = buyer
    .getByRole('button', {
      name: /^(Attach CIS|Replace CIS|Approve|Reject|Accept version \d+|Counter-propose|Revise proposal|Save addresses|Send|Cancel deal|Open a dispute)$/,
    })
    .and(buyer.locator(':enabled'));
  await expect(actions).toHaveCount(0);

  // The server says the same to a direct change of terms with the buyer's own session.
  const response = await buyer.request.put(`/api/v1/deals/${dealId}/terms`, {
    headers: { Authorization: `Bearer ${await accessTokenOf(buyer)}` },
    data: {
      asset_chain: 'ETH',
      asset_symbol: 'WBTC',
      asset_amount: '125000000',
      stable_chain: 'ETH',
      stable_symbol: 'USDT',
      stable_amount: '74000000000',
      funding_deadline_hours: 24,
      meeting_required: false,
      travel_location: null,
    },
  });
  expect(response.status()).toBe(409);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('DEAL_NOT_ACTIVE');
  await expectSameDocument(buyer);

  // 7. This deal's audit trail verifies too, the cancellation included.
  await expectAuditVerifies(buyer);
  await expectAuditVerifies(seller);
});
