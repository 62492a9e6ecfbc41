import { type Browser, expect, type Page, test } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { longSessionURL } from '../playwright.config.js';
import {
  bitcoinDevnet,
  paidTo,
  randomRegtestAddress,
  regtestTransaction,
  totalOutputs,
} from './bitcoin-helpers.js';
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
import { createEscrowKey, ethereumDevnet, tokenBalance } from './escrow-helpers.js';

// Two browsers stay on one deal while it is funded and settled: a one-hour access token keeps it simple.
// That server mines a regtest block every second (playwright.config.ts), so confirmations arrive quickly.
test.use({ baseURL: longSessionURL });

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000)}`;

/**
 * 0.12345678 BTC (8 decimals) for 8641.975309 USDT on Ethereum (6 decimals): neither amount is a
 * multiple of 10 000 base units, so the fee's rounding down shows in the last digit.
 */
const trade = {
  assetChain: 'BTC',
  assetSymbol: 'BTC',
  assetAmount: '0.12345678',
  stableChain: 'ETH',
  stableSymbol: 'USDT',
  stableAmount: '8641.975309',
} as const;

// The fee is 1 basis point of each leg, rounded down to the base unit (DESIGN §4):
//   asset  12 345 678 sat BTC:        fee floor(/10 000) = 1 234 sat; the buyer receives
//          12 345 678 − 1 234 − the network fee (paid to the miners out of the recipient's output)
//   stable 8 641 975 309 USDT units:  fee floor(/10 000) = 864 197,
//          seller receives 8 641 975 309 − 864 197 = 8 641 111 112
const asset = 12_345_678n;
const assetFee = 1_234n;
const stable = 8_641_975_309n;
const stableFee = 864_197n;
const sellerReceives = 8_641_111_112n;

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

test('two traders settle a BTC-for-USDT escrow from their browsers: a 2-of-3 P2WSH leg signed as a PSBT', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const bitcoin = await bitcoinDevnet(request);
  const ethereum = await ethereumDevnet(request);
  const stableFeeBefore = await tokenBalance(ethereum, 'USDT', ethereum.feeAddress);
  // Fresh payout addresses: whatever they hold afterwards came from this deal's escrow.
  const addresses = {
    buyer: { payout: randomRegtestAddress(), refund: randomEthereumAddress() },
    seller: { payout: privateKeyToAccount(generatePrivateKey()).address, refund: randomRegtestAddress() },
  };
  expect(addresses.buyer.payout).toMatch(/^rb1q[02-9ac-hj-np-z]{38}$/);
  expect(await tokenBalance(ethereum, 'USDT', addresses.seller.payout)).toBe(0n);

  // 1. Each trader creates an escrow key in their own browser: it registers a Bitcoin key as well.
  const { buyer, seller } = await signInTraders(browser);
  for (const [page, password] of [
    [buyer, escrowPasswords.buyer],
    [seller, escrowPasswords.seller],
  ] as const) {
    const signers = await createEscrowKey(page, password);
    expect(signers.bitcoinPublicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  }
  await uploadCis(buyer, `Demo Buyer Holdings ${run}`);
  await uploadCis(seller, `Demo Seller Trading ${run}`);

  // 2. The buyer creates the deal; CIS, addresses and terms are agreed on its page.
  const dealId = await createDealWithDemoSeller(buyer, trade);
  await openDealPage(buyer, dealId);
  await openDealPage(seller, dealId);
  await agreeTerms(buyer, seller, addresses);

  // 3. The buyer opens the escrow; the seller's page shows the Bitcoin leg's P2WSH address, live.
  await escrowCard(buyer).getByRole('button', { name: 'Open escrow' }).click();
  const assetLeg = (page: Page, who: string) =>
    escrowCard(page).getByRole('region', { name: `Asset leg: ${who}` });
  const stableLeg = (page: Page, who: string) =>
    escrowCard(page).getByRole('region', { name: `Stablecoin leg: ${who}` });
  const sellerBtcLeg = assetLeg(seller, 'You deposit');
  await expect(sellerBtcLeg).toContainText('0.12345678 BTC');
  await expect(sellerBtcLeg).toContainText('on Bitcoin');
  await expect(stableLeg(buyer, 'You deposit')).toContainText('8641.975309 USDT');
  const depositAddress = (await sellerBtcLeg.locator('code').first().textContent()) ?? '';
  // P2WSH on bcoin's regtest: `rb1q` and a 32-byte program, 62 characters.
  expect(depositAddress).toMatch(/^rb1q[02-9ac-hj-np-z]{58}$/);
  const paymentRequest = `bitcoin:${depositAddress}?amount=0.12345678`;
  await expect(sellerBtcLeg.getByRole('img', { name: 'QR code of the deposit address' })).toHaveAttribute(
    'data-value',
    paymentRequest,
  );
  await expect(sellerBtcLeg).toContainText(paymentRequest);
  // The buyer sees the same address, with the custody it can check: the keys and the witness script.
  await expect(assetLeg(buyer, 'demo_seller deposits')).toContainText(depositAddress);
  await expect(sellerBtcLeg.getByText('Custody: 2-of-3 multisig')).toBeVisible();
  const btcProgress = sellerBtcLeg.getByRole('progressbar', { name: 'Confirmations' });
  await expect(btcProgress).toHaveAttribute('aria-valuenow', '0');
  await expect(btcProgress).toHaveAttribute('aria-valuemax', String(bitcoin.confirmations));
  // Only the depositor of a leg may fund it from the devnet wallet: one button on each page.
  for (const page of [buyer, seller]) {
    await expect(escrowCard(page).getByRole('button', { name: 'Fund from devnet wallet' })).toHaveCount(1);
  }

  // 4. Each funds their own leg from the devnet wallet; the Bitcoin confirmations climb block by block.
  await sellerBtcLeg.getByRole('button', { name: 'Fund from devnet wallet' }).click();
  await stableLeg(buyer, 'You deposit').getByRole('button', { name: 'Fund from devnet wallet' }).click();
  const depthsSeen = new Set<string>();
  await expect
    .poll(
      async () => {
        const depth = await assetLeg(buyer, 'demo_seller deposits')
          .getByRole('progressbar', { name: 'Confirmations' })
          .getAttribute('aria-valuenow')
          .catch(() => null);
        if (depth !== null) depthsSeen.add(depth);
        return depth;
      },
      { timeout: 30_000, intervals: [100] },
    )
    .toBe(String(bitcoin.confirmations));
  expect(depthsSeen.size).toBeGreaterThan(1);
  const legStates = (page: Page) => escrowCard(page).getByText('Funded', { exact: true });
  await expect(legStates(buyer)).toHaveCount(2, { timeout: 30_000 });
  await expect(legStates(seller)).toHaveCount(2, { timeout: 30_000 });

  // 5. The seller sees what the Bitcoin payout pays before signing: the buyer's amount, the fee, the
  //    network fee; and signs the PSBT in the browser with the escrow key.
  const sellerConfirm = escrowCard(seller).getByRole('region', { name: 'Confirm settlement' });
  const transfers = sellerConfirm.getByRole('list', { name: 'Transfers of the asset leg' });
  await expect(transfers).toContainText(addresses.buyer.payout);
  await expect(transfers).toContainText(`Fee of 0.00001234 BTC to Covenant’s fee address`);
  await expect(transfers).toContainText(bitcoin.feeAddress);
  const networkFeeText = (await sellerConfirm.getByText(/^Network fee/).textContent()) ?? '';
  // Shown without trailing zeros (0.0000113 BTC is 1 130 sat).
  const networkFeeShown = /Network fee (0\.\d{1,8}) BTC/.exec(networkFeeText)?.[1];
  expect(networkFeeShown).toBeDefined();
  const networkFee = BigInt((networkFeeShown ?? '').split('.')[1]?.padEnd(8, '0') ?? '');
  expect(networkFee).toBeGreaterThan(0n);
  const buyerReceives = asset - assetFee - networkFee;
  // As the page writes it: exact, without trailing zeros.
  const buyerAmount =
    `${buyerReceives / 100_000_000n}.${(buyerReceives % 100_000_000n).toString().padStart(8, '0')}`
      .replace(/0+$/, '')
      .replace(/\.$/, '');
  await expect(transfers).toContainText(`Pays ${buyerAmount} BTC to demo_buyer`);
  await sellerConfirm.getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.seller);
  await sellerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();
  await expect(escrowCard(seller).getByText('Waiting for demo_buyer to confirm')).toBeVisible();

  // 6. The buyer confirms the USDT leg as on Ethereum (EIP-712).
  const buyerConfirm = escrowCard(buyer).getByRole('region', { name: 'Confirm settlement' });
  await expect(buyerConfirm.getByRole('list', { name: 'Transfers of the stable leg' })).toContainText(
    addresses.seller.payout,
  );
  await buyerConfirm.getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.buyer);
  await buyerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();

  // 7. Both pages reach the completed view with each leg's transaction, without a reload.
  const hashes: string[] = [];
  for (const page of [buyer, seller]) {
    await expect(escrowCard(page).getByText('The escrow is settled.')).toBeVisible({ timeout: 45_000 });
    await expect(dealField(page, 'Status')).toHaveText('Completed');
    for (const name of ['Asset leg', 'Stablecoin leg']) {
      const leg = escrowCard(page).getByRole('region', { name, exact: true });
      await expect(leg.getByText('Released', { exact: true })).toBeVisible();
      hashes.push((await leg.locator('code').first().textContent()) ?? '');
    }
    // What the Bitcoin transaction paid, after the network fee the seller saw before signing.
    const settledBtc = escrowCard(page).getByRole('region', { name: 'Asset leg', exact: true });
    await expect(settledBtc).toContainText(
      page === buyer ? `Pays ${buyerAmount} BTC to you` : `Pays ${buyerAmount} BTC to demo_buyer`,
    );
    await expect(settledBtc.getByText(/^Network fee/)).toContainText(`Network fee ${networkFeeShown} BTC`);
    await expectSameDocument(page);
  }
  expect(hashes.slice(2)).toEqual(hashes.slice(0, 2));
  const [btcTxid = '', usdtHash = ''] = hashes;
  expect(btcTxid).toMatch(/^[0-9a-f]{64}$/);
  expect(usdtHash).toMatch(/^0x[0-9a-f]{64}$/);

  // 8. On-chain, to the satoshi: the payout spends the whole deposit; the buyer gets amount − fee −
  //    network fee, the fee address exactly amount / 10 000; the USDT leg as on Ethereum.
  const payout = await regtestTransaction(bitcoin, btcTxid);
  expect(paidTo(payout, addresses.buyer.payout)).toBe(buyerReceives);
  expect(paidTo(payout, bitcoin.feeAddress)).toBe(assetFee);
  expect(totalOutputs(payout)).toBe(asset - networkFee);
  expect(payout.outputsLength).toBe(2);
  const receipt = await ethereum.client.getTransactionReceipt({ hash: usdtHash as `0x${string}` });
  expect(receipt.status).toBe('success');
  expect(await tokenBalance(ethereum, 'USDT', addresses.seller.payout)).toBe(sellerReceives);
  expect((await tokenBalance(ethereum, 'USDT', ethereum.feeAddress)) - stableFeeBefore).toBe(stableFee);
  expect(sellerReceives + stableFee).toBe(stable);
});
