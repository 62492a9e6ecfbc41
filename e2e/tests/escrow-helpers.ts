import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { type Address, createPublicClient, erc20Abi, getAddress, http, type PublicClient } from 'viem';

/** What the escrow tests read of the server's Ethereum devnet (`GET /api/v1/chains`). */
export interface EthereumDevnet {
  rpcUrl: string;
  feeAddress: Address;
  /** ERC-20 contracts by symbol (ETH itself, with no contract, is left out). */
  tokens: Record<string, Address>;
  client: PublicClient;
}

type ChainsResponse = {
  data: {
    chain: string;
    fee_address: string;
    rpc_url?: string;
    tokens: { symbol: string; address: string | null }[];
  }[];
};

/**
 * The Ethereum devnet the test server started, read from its public chain list, with a client that
 * asks the node every time (no cache, no retry) so a balance is the chain's, not a stale copy.
 */
export async function ethereumDevnet(request: APIRequestContext): Promise<EthereumDevnet> {
  const response = await request.get('/api/v1/chains');
  expect(response.status()).toBe(200);
  const ethereum = ((await response.json()) as ChainsResponse).data.find((chain) => chain.chain === 'ETH');
  if (!ethereum?.rpc_url) throw new Error('the test server runs no Ethereum devnet');
  const tokens: Record<string, Address> = {};
  for (const token of ethereum.tokens) {
    if (token.address) tokens[token.symbol] = getAddress(token.address);
  }
  const client = createPublicClient({ transport: http(ethereum.rpc_url, { retryCount: 0 }), cacheTime: 0 });
  return { rpcUrl: ethereum.rpc_url, feeAddress: getAddress(ethereum.fee_address), tokens, client };
}

/** `owner`'s balance of the devnet token `symbol`, in base units. */
export async function tokenBalance(devnet: EthereumDevnet, symbol: string, owner: string): Promise<bigint> {
  const token = devnet.tokens[symbol];
  if (!token) throw new Error(`the devnet has no ${symbol}`);
  return devnet.client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [getAddress(owner)],
  });
}

/** The signers the escrow key page says it registered: the Ethereum address, and the Bitcoin key where BTC is offered. */
export interface EscrowKeySigners {
  ethereumAddress: string;
  bitcoinPublicKey: string | null;
}

/**
 * Creates the signed-in user's escrow key at /settings/escrow-key as a person would: the backup phrase
 * shown once, the written-down checkbox, the escrow password twice. Returns the Ethereum signing
 * address the page says it registered, and the Bitcoin public key when the server offers Bitcoin.
 */
export async function createEscrowKey(page: Page, password: string): Promise<EscrowKeySigners> {
  await page.goto('/settings/escrow-key');
  // A key left by an earlier test on the same server is replaced: the flow is the same from there.
  const replace = page.getByRole('button', { name: 'Replace escrow key' });
  const create = page.getByRole('button', { name: 'Create escrow key' });
  await expect(replace.or(create)).toBeVisible();
  if (await replace.isVisible()) await replace.click();
  await create.click();
  await expect(page.getByRole('list', { name: 'Backup phrase' }).getByRole('listitem')).toHaveCount(12);
  await page.getByLabel('I have written down my backup phrase').check();
  await page.getByLabel('Escrow password', { exact: true }).fill(password);
  await page.getByLabel('Confirm escrow password').fill(password);
  await page.getByRole('button', { name: 'Save escrow key' }).click();
  const saved = page.getByRole('status').filter({ hasText: 'Your escrow key is saved.' });
  // Encrypting runs PBKDF2 with 600 000 rounds in the browser before the key is stored.
  await expect(saved).toBeVisible({ timeout: 20_000 });
  // The Ethereum address comes first; a second code is the Bitcoin key, when the server lists BTC.
  const codes = await saved.locator('code').allTextContents();
  const [ethereumAddress = '', bitcoinPublicKey = null] = codes;
  expect(ethereumAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
  if (bitcoinPublicKey !== null) expect(bitcoinPublicKey).toMatch(/^0[23][0-9a-f]{64}$/);
  return { ethereumAddress, bitcoinPublicKey };
}

/**
 * Collects every escrow approval the page sends, so a test can show that something (a wrong escrow
 * password) signed and sent nothing.
 */
export function recordReleaseRequests(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/escrow/release')) sent.push(request.postData() ?? '');
  });
  return sent;
}
