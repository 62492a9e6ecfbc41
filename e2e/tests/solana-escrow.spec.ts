import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { longSessionURL } from '../playwright.config.js';
import {
  agreeTerms,
  createDealWithDemoSeller,
  dealField,
  expectSameDocument,
  openDealPage,
  signInOwnBrowser,
  uploadCis,
} from './deal-room-helpers.js';
import { createEscrowKey } from './escrow-helpers.js';
import {
  accountExists,
  associatedTokenAccount,
  lamports,
  randomSolanaAddress,
  solanaDevnet,
  splMultisig,
  tokenBalance,
} from './solana-helpers.js';

// Two browsers stay on one deal while it is funded and settled: a one-hour access token keeps it simple.
// Its Solana devnet makes a slot every 400 ms, so a deposit reaches its confirmation within seconds.
test.use({ baseURL: longSessionURL });

const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000)}`;

/**
 * 1.234567891 SOL (9 decimals) for 8641.975309 USDC on Solana (6 decimals): neither amount is a
 * multiple of 10 000 base units, so the fee's rounding down shows in the last digit.
 */
const trade = {
  assetChain: 'SOL',
  assetSymbol: 'SOL',
  assetAmount: '1.234567891',
  stableChain: 'SOL',
  stableSymbol: 'USDC',
  stableAmount: '8641.975309',
} as const;

// The fee is 1 basis point of each leg, rounded down to the base unit (DESIGN §4); Covenant's relayer
// pays the Solana network fee, so nothing else comes out of the amounts:
//   asset  1 234 567 891 lamports:  fee floor(1 234 567 891 / 10 000) = 123 456 lamports;
//          the buyer receives 1 234 567 891 − 123 456 = 1 234 444 435 lamports
//   stable 8 641 975 309 USDC units: fee floor(8 641 975 309 / 10 000) = 864 197;
//          the seller receives 8 641 975 309 − 864 197 = 8 641 111 112
const asset = 1_234_567_891n;
const assetFee = 123_456n;
const buyerReceives = 1_234_444_435n;
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

/** The value a leg's custody block lists under `label` ("Buyer", "Multisig", "Token account", ...). */
function custodyField(leg: Locator, label: string): Locator {
  return leg.locator('details dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd');
}

const base58Address = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

test('two traders settle a SOL-for-USDC escrow from their browsers: SPL token multisigs, Solana Pay requests, ed25519 approvals', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const solana = await solanaDevnet(request);
  const usdcMint = solana.mints.USDC ?? '';
  expect(usdcMint).toMatch(base58Address);
  expect(solana.feeAddress).toMatch(base58Address);
  const feeLamportsBefore = await lamports(solana, solana.feeAddress);
  const feeUsdcBefore = (await tokenBalance(solana, 'USDC', solana.feeAddress)) ?? 0n;
  // Fresh Solana wallets: whatever they hold afterwards came from this deal's escrow.
  const addresses = {
    buyer: { payout: randomSolanaAddress(), refund: randomSolanaAddress() },
    seller: { payout: randomSolanaAddress(), refund: randomSolanaAddress() },
  };
  expect(addresses.buyer.payout).toMatch(base58Address);
  expect(await lamports(solana, addresses.buyer.payout)).toBe(0n);
  expect(await tokenBalance(solana, 'USDC', addresses.seller.payout)).toBeNull();

  // 1. Each trader creates an escrow key in their own browser: it registers its Solana key
  //    (m/44'/501'/0'/0' of the seed) with the server, which the escrow key page then lists.
  const { buyer, seller } = await signInTraders(browser);
  const solanaKeys = { buyer: '', seller: '' };
  for (const [page, party] of [
    [buyer, 'buyer'],
    [seller, 'seller'],
  ] as const) {
    await createEscrowKey(page, escrowPasswords[party]);
    const saved = page.getByRole('status').filter({ hasText: 'Your escrow key is saved.' });
    const key =
      (await saved.locator('p', { hasText: 'Solana signing address' }).locator('code').textContent()) ?? '';
    expect(key).toMatch(base58Address);
    solanaKeys[party] = key;
    // What the server has registered (GET /wallets/balance), after a reload.
    await page.reload();
    await expect(page.getByText('Solana signing address', { exact: true }).locator('+ code')).toHaveText(key);
  }
  expect(solanaKeys.buyer).not.toBe(solanaKeys.seller);
  await uploadCis(buyer, `Demo Buyer Holdings ${run}`);
  await uploadCis(seller, `Demo Seller Trading ${run}`);

  // 2. The buyer creates the deal; CIS, addresses and terms are agreed on its page.
  const dealId = await createDealWithDemoSeller(buyer, trade);
  await openDealPage(buyer, dealId);
  await openDealPage(seller, dealId);
  await agreeTerms(buyer, seller, addresses);

  // 3. The buyer opens the escrow; both pages show each Solana leg's deposit address, live.
  await escrowCard(buyer).getByRole('button', { name: 'Open escrow' }).click();
  const assetLeg = (page: Page, who: string) =>
    escrowCard(page).getByRole('region', { name: `Asset leg: ${who}` });
  const stableLeg = (page: Page, who: string) =>
    escrowCard(page).getByRole('region', { name: `Stablecoin leg: ${who}` });
  const sellerSolLeg = assetLeg(seller, 'You deposit');
  const buyerUsdcLeg = stableLeg(buyer, 'You deposit');
  // Opening sends the legs' accounts to the chain first: under load that takes more than a few
  // seconds, and each page shows the legs when its next poll of the escrow finds them.
  await expect(sellerSolLeg).toContainText('1.234567891 SOL', { timeout: 60_000 });
  await expect(sellerSolLeg).toContainText('on Solana');
  await expect(buyerUsdcLeg).toContainText('8641.975309 USDC', { timeout: 60_000 });
  await expect(buyerUsdcLeg).toContainText('on Solana');

  // The SOL leg: a wrapped-SOL token account; the Solana Pay request pays it directly, no spl-token.
  const solDeposit = (await sellerSolLeg.locator('code').first().textContent()) ?? '';
  expect(solDeposit).toMatch(base58Address);
  const message = (legName: string) => `message=${encodeURIComponent(`Deal ${dealId}, ${legName}`)}`;
  const solRequest = `solana:${solDeposit}?amount=1.234567891&label=Covenant&${message('asset leg')}`;
  await expect(sellerSolLeg.getByRole('img', { name: 'QR code of the deposit address' })).toHaveAttribute(
    'data-value',
    solRequest,
  );
  await expect(sellerSolLeg).toContainText(solRequest);
  await expect(assetLeg(buyer, 'demo_seller deposits')).toContainText(solDeposit);

  // The USDC leg: the multisig's associated USDC account; the request names the multisig (its owner)
  // and the mint, so a wallet pays into exactly that account.
  const usdcDeposit = (await buyerUsdcLeg.locator('code').first().textContent()) ?? '';
  await buyerUsdcLeg.getByText('Custody: 2-of-3 multisig').click();
  const usdcMultisig = ((await custodyField(buyerUsdcLeg, 'Multisig').textContent()) ?? '').replace(
    / \(2 of 3\)$/,
    '',
  );
  expect(usdcMultisig).toMatch(base58Address);
  expect(usdcDeposit).toBe(await associatedTokenAccount(solana, 'USDC', usdcMultisig));
  const usdcRequest = `solana:${usdcMultisig}?amount=8641.975309&spl-token=${usdcMint}&label=Covenant&${message('stablecoin leg')}`;
  await expect(buyerUsdcLeg.getByRole('img', { name: 'QR code of the deposit address' })).toHaveAttribute(
    'data-value',
    usdcRequest,
  );
  await expect(buyerUsdcLeg).toContainText(usdcRequest);
  await expect(stableLeg(seller, 'demo_buyer deposits')).toContainText(usdcDeposit);

  // The custody blocks: the parties' registered Solana keys and the platform's, 2 of 3, the accounts;
  // the chain holds the same multisig (SPL Token, m = 2, signers buyer, seller, platform).
  await sellerSolLeg.getByText('Custody: 2-of-3 multisig').click();
  for (const [leg, deposit] of [
    [sellerSolLeg, solDeposit],
    [buyerUsdcLeg, usdcDeposit],
  ] as const) {
    await expect(custodyField(leg, 'Buyer')).toHaveText(solanaKeys.buyer);
    await expect(custodyField(leg, 'Seller')).toHaveText(solanaKeys.seller);
    await expect(custodyField(leg, 'Multisig')).toHaveText(/ \(2 of 3\)$/);
    await expect(custodyField(leg, 'Token account')).toHaveText(deposit);
    await expect(leg.getByText(/^Checked in this browser/)).toBeVisible();
    const multisig = ((await custodyField(leg, 'Multisig').textContent()) ?? '').replace(/ \(2 of 3\)$/, '');
    const platform = (await custodyField(leg, 'Covenant').textContent()) ?? '';
    const nonceAccount = (await custodyField(leg, 'Nonce account').textContent()) ?? '';
    expect(await splMultisig(solana, multisig)).toEqual({
      isInitialized: true,
      numRequiredSigners: 2,
      numValidSigners: 3,
      signers: [solanaKeys.buyer, solanaKeys.seller, platform],
    });
    expect(await accountExists(solana, nonceAccount)).toBe(true);
    expect(await accountExists(solana, deposit)).toBe(true);
  }
  await expect(custodyField(buyerUsdcLeg, 'Token mint')).toHaveText(usdcMint);
  const solProgress = sellerSolLeg.getByRole('progressbar', { name: 'Confirmations' });
  await expect(solProgress).toHaveAttribute('aria-valuenow', '0');
  await expect(solProgress).toHaveAttribute('aria-valuemax', String(solana.confirmations));
  // Only the depositor of a leg may fund it from the devnet wallet: one button on each page.
  for (const page of [buyer, seller]) {
    await expect(escrowCard(page).getByRole('button', { name: 'Fund from devnet wallet' })).toHaveCount(1);
  }

  // 4. Each funds their own leg from the devnet wallet: lamports to the wSOL account, USDC to the ATA.
  await sellerSolLeg.getByRole('button', { name: 'Fund from devnet wallet' }).click();
  await buyerUsdcLeg.getByRole('button', { name: 'Fund from devnet wallet' }).click();
  const legStates = (page: Page) => escrowCard(page).getByText('Funded', { exact: true });
  await expect(legStates(buyer)).toHaveCount(2, { timeout: 30_000 });
  await expect(legStates(seller)).toHaveCount(2, { timeout: 30_000 });

  // 5. The seller sees what the SOL payout pays before signing — the buyer's amount, the fee, no
  //    network fee out of them — and signs the message in the browser with the Solana escrow key.
  const sellerConfirm = escrowCard(seller).getByRole('region', { name: 'Confirm settlement' });
  const assetTransfers = sellerConfirm.getByRole('list', { name: 'Transfers of the asset leg' });
  await expect(assetTransfers).toContainText('Pays 1.234444435 SOL to demo_buyer');
  await expect(assetTransfers).toContainText(addresses.buyer.payout);
  await expect(assetTransfers).toContainText('Fee of 0.000123456 SOL to Covenant’s fee address');
  await expect(assetTransfers).toContainText(solana.feeAddress);
  await expect(sellerConfirm.getByText(/^Network fee/)).toContainText('Network fee none');
  await expect(sellerConfirm).toContainText(solanaKeys.seller);
  await sellerConfirm.getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.seller);
  await sellerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();
  await expect(escrowCard(seller).getByText('Waiting for demo_buyer to confirm')).toBeVisible({
    timeout: 20_000,
  });

  // 6. The buyer reviews and signs the USDC leg the same way.
  const buyerConfirm = escrowCard(buyer).getByRole('region', { name: 'Confirm settlement' });
  const stableTransfers = buyerConfirm.getByRole('list', { name: 'Transfers of the stable leg' });
  await expect(stableTransfers).toContainText('Pays 8641.111112 USDC to demo_seller');
  await expect(stableTransfers).toContainText(addresses.seller.payout);
  await expect(stableTransfers).toContainText('Fee of 0.864197 USDC to Covenant’s fee address');
  await expect(buyerConfirm).toContainText(solanaKeys.buyer);
  await buyerConfirm.getByLabel('Escrow password', { exact: true }).fill(escrowPasswords.buyer);
  await buyerConfirm.getByRole('button', { name: 'Confirm settlement' }).click();

  // 7. Both pages reach the completed view with each leg's amounts and transaction, without a reload.
  const signatures: string[] = [];
  for (const page of [buyer, seller]) {
    await expect(escrowCard(page).getByText('The escrow is settled.')).toBeVisible({ timeout: 45_000 });
    await expect(dealField(page, 'Status')).toHaveText('Completed');
    const settledSol = escrowCard(page).getByRole('region', { name: 'Asset leg', exact: true });
    const settledUsdc = escrowCard(page).getByRole('region', { name: 'Stablecoin leg', exact: true });
    await expect(settledSol).toContainText(
      page === buyer ? 'Pays 1.234444435 SOL to you' : 'Pays 1.234444435 SOL to demo_buyer',
    );
    await expect(settledSol).toContainText('Fee of 0.000123456 SOL to Covenant’s fee address');
    await expect(settledUsdc).toContainText(
      page === seller ? 'Pays 8641.111112 USDC to you' : 'Pays 8641.111112 USDC to demo_seller',
    );
    await expect(settledUsdc).toContainText('Fee of 0.864197 USDC to Covenant’s fee address');
    for (const leg of [settledSol, settledUsdc]) {
      await expect(leg.getByText('Released', { exact: true })).toBeVisible();
      signatures.push((await leg.locator('code').first().textContent()) ?? '');
    }
    await expectSameDocument(page);
  }
  expect(signatures.slice(2)).toEqual(signatures.slice(0, 2));
  for (const signature of signatures) expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);

  // 8. On-chain, to the base unit: the buyer's fresh wallet holds amount − fee lamports, the
  //    seller's USDC account amount − fee; the fee address got exactly each fee; both leg accounts
  //    are closed (their rent went back to the relayer, not out of the amounts).
  for (const signature of signatures.slice(0, 2)) {
    const { value } = await solana.rpc<{ value: ({ err: unknown; confirmationStatus: string } | null)[] }>(
      'getSignatureStatuses',
      [[signature], { searchTransactionHistory: true }],
    );
    expect(value[0]?.err).toBeNull();
  }
  expect(await lamports(solana, addresses.buyer.payout)).toBe(buyerReceives);
  expect(buyerReceives + assetFee).toBe(asset);
  expect((await lamports(solana, solana.feeAddress)) - feeLamportsBefore).toBe(assetFee);
  expect(await tokenBalance(solana, 'USDC', addresses.seller.payout)).toBe(sellerReceives);
  expect(sellerReceives + stableFee).toBe(stable);
  expect(((await tokenBalance(solana, 'USDC', solana.feeAddress)) ?? 0n) - feeUsdcBefore).toBe(stableFee);
  // Nothing went to the refund addresses.
  expect(await lamports(solana, addresses.seller.refund)).toBe(0n);
  expect(await tokenBalance(solana, 'USDC', addresses.buyer.refund)).toBeNull();
  expect(await accountExists(solana, solDeposit)).toBe(false);
  expect(await accountExists(solana, usdcDeposit)).toBe(false);
});
