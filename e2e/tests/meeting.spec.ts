import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { longSessionURL } from '../playwright.config.js';
import {
  agreeTerms,
  currentStep,
  dealField,
  openDealPage,
  randomEthereumAddress,
  signIn,
  signInOwnBrowser,
  uploadCis,
} from './deal-room-helpers.js';
import { createEscrowKey, ethereumDevnet, tokenBalance } from './escrow-helpers.js';
import { launchWithFakeCamera, writeQrVideo } from './fake-camera.js';
import { expectNoSeriousAxeViolations } from './public-checks.js';
import { passStaffGate } from './staff-second-factor.js';

/** Lindenhof, Zurich: the meeting place, and where both phones say they are. */
const place = { latitude: 47.3729, longitude: 8.5409 };

/**
 * A phone (390×844, touch) that shares its position at the meeting place and may use its camera.
 * The deal stays open in two browsers while it is funded and met: a one-hour access token keeps it simple.
 */
const phone = {
  baseURL: longSessionURL,
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  geolocation: { ...place, accuracy: 15 },
  permissions: ['geolocation', 'camera'],
};
test.use(phone);

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000)}`;
const escrowPasswords = { buyer: `buyer escrow ${run}`, seller: `seller escrow ${run}` };

// 0.5 WETH for 1000.5 USDC. The fee is 1 basis point of each leg, rounded down to the base unit,
// and travel is paid from the stable leg, the seller bearing it (the terms' "Travel paid by: Seller"):
//   hotel 120.25 USDC = 120 250 000 units, paid to the hotel from the escrow without fee
//   stable 1 000 500 000 USDC units: fee floor(/10 000) = 100 050,
//     seller receives 1 000 500 000 − 100 050 − 120 250 000 = 880 149 950
//   asset 500 000 000 000 000 000 wei: fee 50 000 000 000 000, buyer receives 499 950 000 000 000 000
const hotelPrice = 120_250_000n;
const sellerReceives = 880_149_950n;
const buyerReceives = 499_950_000_000_000_000n;

/** Today in UTC: the meeting's first day, so check-in is open as soon as the escrow is funded. */
const today = new Date().toISOString().slice(0, 10);

/** The buyer creates the deal with the demo seller, the meeting in its terms; returns its id. */
async function createMeetingDeal(buyer: Page): Promise<string> {
  await buyer.goto('/trading');
  await buyer.getByRole('tab', { name: 'Create Trade' }).click();
  const form = buyer.getByRole('form', { name: 'Create Trade' });
  await form.getByLabel('Asset Chain').selectOption('ETH');
  await form.getByLabel('Asset Symbol').selectOption('WETH');
  await form.getByLabel('Asset Amount').fill('0.5');
  await form.getByLabel('Stable Chain').selectOption('ETH');
  await form.getByLabel('Stable Symbol').selectOption('USDC');
  await form.getByLabel('Stable Amount').fill('1000.5');
  await form.getByLabel('Trading Partner').selectOption({ label: 'demo_seller (Enhanced Tier)' });
  await form.getByLabel('Require in-person meeting').check();
  await form.getByLabel('Meeting Location').fill('Lindenhof, Zurich');
  // A latitude out of range is refused in the form, with the field's own message.
  await form.getByLabel('Latitude').fill('147.3729');
  await form.getByRole('button', { name: 'Create Trade', exact: true }).click();
  await expect(form.getByLabel('Latitude')).toHaveAccessibleDescription(
    'Latitude is a number from -90 to 90 with at most 6 decimals, e.g. 46.2075.',
  );
  await form.getByLabel('Latitude').fill(String(place.latitude));
  await form.getByLabel('Longitude').fill(String(place.longitude));
  await form.getByLabel('First day').fill(today);
  await form.getByLabel('Duration').selectOption({ label: '1-2 days' });
  await form.getByLabel('Travel paid by').selectOption({ label: 'Seller' });
  const created = buyer.waitForResponse(
    (response) => response.url().endsWith('/api/v1/deals') && response.request().method() === 'POST',
  );
  await form.getByRole('button', { name: 'Create Trade', exact: true }).click();
  const response = await created;
  expect(response.status()).toBe(201);
  const deal = (await response.json()) as { id: string; meeting: unknown };
  expect(deal.meeting).toEqual({
    location: 'Lindenhof, Zurich',
    latitude: '47.3729',
    longitude: '8.5409',
    starts_on: today,
    duration: '1-2',
    travel_paid_by: 'seller',
  });
  return deal.id;
}

function escrowCard(page: Page) {
  return page.getByRole('region', { name: 'Escrow', exact: true });
}

function meetingCard(page: Page) {
  return page.getByRole('region', { name: 'Meeting', exact: true });
}

/** Shows the viewer's own check-in code on `page`; answers the typed code and what its QR holds. */
async function showMyCode(page: Page): Promise<{ token: string; qrText: string }> {
  const card = meetingCard(page);
  await card.getByRole('button', { name: 'Show my code' }).click();
  const token = (await card.getByTestId('meeting-code').textContent()) ?? '';
  expect(token).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  const qrText =
    (await card.getByRole('img', { name: 'Your check-in QR code' }).getAttribute('data-value')) ?? '';
  expect(qrText).not.toBe('');
  return { token, qrText };
}

test('on phones, a funded deal with a meeting waits for both check-ins (one typed, one scanned), then settles', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const devnet = await ethereumDevnet(request);
  const payouts = {
    buyer: privateKeyToAccount(generatePrivateKey()).address,
    seller: privateKeyToAccount(generatePrivateKey()).address,
  };

  // 1. Escrow keys, CIS, and the deal with its meeting, agreed on both phones.
  const buyer = await signInOwnBrowser(browser, 'buyer@demo.covenant.test');
  const seller = await signInOwnBrowser(browser, 'seller@demo.covenant.test');
  await createEscrowKey(buyer, escrowPasswords.buyer);
  await createEscrowKey(seller, escrowPasswords.seller);
  await uploadCis(buyer, `Demo Buyer Holdings ${run}`);
  await uploadCis(seller, `Demo Seller Trading ${run}`);
  const dealId = await createMeetingDeal(buyer);
  await openDealPage(buyer, dealId);
  await openDealPage(seller, dealId);
  await expect(meetingCard(seller)).toContainText('Lindenhof, Zurich');
  await expect(meetingCard(seller)).toContainText('47.3729, 8.5409');
  await expect(meetingCard(seller)).toContainText(`From ${today} (UTC), 1-2 days`);
  await expect(meetingCard(seller)).toContainText('Seller');
  await agreeTerms(buyer, seller, {
    buyer: { payout: payouts.buyer, refund: randomEthereumAddress() },
    seller: { payout: payouts.seller, refund: randomEthereumAddress() },
  });
  await expect(meetingCard(buyer).getByTestId('meeting-status')).toContainText(
    'Scheduled: check-in opens once the escrow is funded',
  );

  // 2. Both legs funded from the devnet wallet; check-in opens on both phones, live.
  await escrowCard(buyer).getByRole('button', { name: 'Open escrow' }).click();
  const leg = (page: Page, name: string) => escrowCard(page).getByRole('region', { name });
  await leg(seller, 'Asset leg: You deposit')
    .getByRole('button', { name: 'Fund from devnet wallet' })
    .click();
  await leg(buyer, 'Stablecoin leg: You deposit')
    .getByRole('button', { name: 'Fund from devnet wallet' })
    .click();
  for (const page of [buyer, seller]) {
    await expect(escrowCard(page).getByText('Funded', { exact: true })).toHaveCount(2, { timeout: 30_000 });
    await expect(meetingCard(page).getByTestId('meeting-status')).toHaveText('Check-in is open.');
    await expect(currentStep(page)).toContainText('Meet');
  }

  // 3. Settlement waits for the meeting: nothing to confirm yet.
  const buyerConfirm = escrowCard(buyer).getByRole('region', { name: 'Confirm settlement' });
  await expect(meetingCard(buyer)).toContainText(
    'Settlement waits until both of you check in at the meeting or both waive it.',
  );
  await expect(buyerConfirm).toHaveCount(0);

  // 3b. Travel: the buyer asks for a hotel, the concierge quotes it, both approve it (the buyer signs
  // the partial payout with the escrow key), and the escrow pays the hotel on-chain.
  const hotel = privateKeyToAccount(generatePrivateKey()).address;
  await meetingCard(buyer).getByRole('button', { name: 'Request travel' }).click();
  const requestForm = meetingCard(buyer).getByRole('form', { name: 'Request travel' });
  await requestForm.getByLabel('What').selectOption({ label: 'Hotel' });
  await requestForm.getByLabel('Details').fill('Two nights at the Storchen, from today');
  await requestForm.getByRole('button', { name: 'Send request' }).click();
  const travelList = (page: Page) => meetingCard(page).getByRole('list', { name: 'Travel requests' });
  await expect(travelList(seller)).toContainText('Two nights at the Storchen');
  const concierge = await signInOwnBrowser(browser, 'concierge@demo.covenant.test');
  await concierge.goto('/staff/travel');
  await passStaffGate(concierge);
  const queued = concierge.getByRole('listitem').filter({ hasText: dealId });
  const quoteForm = queued.getByRole('form', { name: /^Quote for item/ });
  await quoteForm.getByLabel('Provider', { exact: true }).fill('Hotel Storchen');
  await quoteForm.getByLabel('Price (USDC)').fill('120.25');
  await quoteForm.getByLabel('What the quote covers').fill('Two nights, river view');
  await quoteForm.getByLabel('Provider’s address on ETH').fill(hotel);
  await quoteForm.getByRole('button', { name: 'Send the quote' }).click();
  await expect(queued).toContainText('Hotel Storchen', { timeout: 15_000 });
  const approval = (page: Page) => meetingCard(page).getByRole('region', { name: 'Approve this quote' });
  await expect(approval(seller)).toContainText(
    '120.25 USDC from the escrow’s stablecoin leg to Hotel Storchen',
    {
      timeout: 30_000,
    },
  );
  await approval(seller).getByRole('button', { name: 'Approve quote' }).click();
  await expect(meetingCard(seller)).toContainText('You approved this quote.');
  await approval(buyer).getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.buyer, {
    timeout: 30_000,
  });
  await approval(buyer).getByRole('button', { name: 'Sign and approve' }).click();
  await expect(travelList(buyer).getByText('paid', { exact: true })).toBeVisible({ timeout: 60_000 });
  expect(await tokenBalance(devnet, 'USDC', hotel)).toBe(hotelPrice);
  await concierge.reload();
  await queued.getByRole('button', { name: 'Mark booked' }).click();
  await expect(travelList(seller).getByText('booked', { exact: true })).toBeVisible({ timeout: 30_000 });
  await concierge.context().close();

  // 4. The buyer checks in by typing the code the seller's phone shows; a wrong code is refused first.
  const sellerCode = await showMyCode(seller);
  // The phone layout: accessible, and nothing wider than the screen (the QR and code included).
  // Checked once the toasts of the steps before have gone: one fading out has no contrast to speak of.
  await expect(seller.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await expectNoSeriousAxeViolations(seller);
  expect(
    await seller.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  const buyerCheckIn = meetingCard(buyer).getByRole('form', { name: 'Check in by code' });
  await buyerCheckIn.getByLabel("demo_seller's code").fill('AAAA-AAAA');
  await buyerCheckIn.getByRole('button', { name: 'Check in', exact: true }).click();
  await expect(meetingCard(buyer).getByRole('alert')).not.toBeEmpty();
  await buyerCheckIn.getByLabel("demo_seller's code").fill(sellerCode.token);
  await buyerCheckIn.getByRole('button', { name: 'Check in', exact: true }).click();
  const checkIns = (page: Page) => meetingCard(page).getByRole('list', { name: 'Check-ins' });
  await expect(checkIns(buyer)).toContainText(
    /demo_buyer \(you\) checked in by code on .*, at the meeting place/,
  );
  await expect(checkIns(seller)).toContainText(/demo_buyer checked in by code/);
  await expect(seller.getByTestId('meeting-check-ins')).toHaveText(
    'Checked in: demo_buyer ✓ · demo_seller —',
  );

  // 5. The seller checks in by scanning the buyer's QR code with the camera of another phone.
  const buyerCode = await showMyCode(buyer);
  const directory = await mkdtemp(path.join(tmpdir(), 'covenant-camera-'));
  const video = path.join(directory, 'buyer-qr.y4m');
  await writeQrVideo(buyerCode.qrText, video);
  const cameraBrowser = await launchWithFakeCamera(video);
  try {
    const context = await cameraBrowser.newContext(phone);
    const scanner = await context.newPage();
    await signIn(scanner, 'seller@demo.covenant.test');
    await scanner.goto(`/trading/deals/${dealId}`);
    // A cold browser: the app's scripts and the deal's queries load from scratch on a busy machine.
    await expect(dealField(scanner, 'Deal ID')).toHaveText(dealId, { timeout: 30_000 });
    await meetingCard(scanner).getByRole('button', { name: 'Scan their QR code' }).click();
    await expect(checkIns(scanner)).toContainText(
      /demo_seller \(you\) checked in by QR scan on .*, at the meeting place/,
      {
        timeout: 30_000,
      },
    );
  } finally {
    await cameraBrowser.close();
    await rm(directory, { recursive: true, force: true });
  }
  for (const page of [buyer, seller]) {
    await expect(meetingCard(page).getByTestId('meeting-status')).toHaveText('Both parties have checked in.');
    await expect(currentStep(page)).toContainText('Settle');
  }

  // 6. Both confirm the settlement; it completes, paid to the base unit.
  await buyerConfirm.getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.buyer);
  await buyerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();
  await expect(escrowCard(buyer).getByText('Waiting for demo_seller to confirm')).toBeVisible();
  const sellerConfirm = escrowCard(seller).getByRole('region', { name: 'Confirm settlement' });
  await sellerConfirm.getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.seller);
  await sellerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();
  for (const page of [buyer, seller]) {
    await expect(escrowCard(page).getByText('The escrow is settled.')).toBeVisible({ timeout: 30_000 });
    await expect(dealField(page, 'Status')).toHaveText('Completed');
  }
  expect(await tokenBalance(devnet, 'USDC', payouts.seller)).toBe(sellerReceives);
  expect(await tokenBalance(devnet, 'WETH', payouts.buyer)).toBe(buyerReceives);
});
