import { covenantEscrowAbi, testTetherTokenAbi } from '@covenant/contracts';
import { fundFromDevnetWallet } from '@covenant/devnets';
import type { EscrowStatusView } from '@covenant/domain';
import { typedDataFromJson } from '@covenant/escrow/ethereum';
import {
  type Address,
  createPublicClient,
  createTestClient,
  erc20Abi,
  getAbiItem,
  type Hex,
  http,
} from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { expect } from 'vitest';

export type LegName = 'asset' | 'stable';

/** A demo trader signed in over HTTP, with a registered escrow key and a wallet of its own on the devnet. */
export interface HttpParty {
  email: string;
  id: string;
  token: string;
  escrowKey: PrivateKeyAccount;
  walletKey: Hex;
  wallet: Address;
}

/** A deal driven to `terms_agreed` with its escrow open: where each leg is deposited and each party is paid. */
export interface OpenedDeal {
  dealId: string;
  asset: Address;
  stable: Address;
  buyerPayout: Address;
  sellerPayout: Address;
}

export interface DealTerms {
  assetSymbol: string;
  assetAmount: bigint;
  stableSymbol: string;
  stableAmount: bigint;
}

export interface HttpDealDriverOptions {
  /** The server to talk to now (a test restarts it, or talks to one replica or another). */
  url: () => string;
  rpcUrl: string;
  tokens: Record<string, Address>;
  /** Extra text for a timeout's message (the server's output, say). */
  describe?: () => string;
}

/**
 * Drives deals through the real server's public API the way two traders would (CIS exchange,
 * addresses, terms, escrow, deposits from their own wallets, approvals signed with their escrow
 * keys), and reads the devnet the way an auditor would. For tests that run the server as a process.
 */
export function httpDealDriver(options: HttpDealDriverOptions) {
  const transport = http(options.rpcUrl, { retryCount: 0 });
  const chain = createPublicClient({ chain: foundry, transport, cacheTime: 0, pollingInterval: 50 });
  const devnet = createTestClient({ chain: foundry, mode: 'anvil', transport });

  /** One request; the status and the parsed JSON body (null when empty). */
  async function call<Body = { status?: string; id?: string }>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    token: string | null,
    body?: unknown,
    url = options.url(),
  ): Promise<{ status: number; json: Body | null; headers: Headers }> {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      json: text ? (JSON.parse(text) as Body) : null,
      headers: response.headers,
    };
  }

  /** A request that must succeed (2xx); its body. */
  async function expectOk<Body = { status?: string; id: string }>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    token: string,
    body?: unknown,
  ): Promise<Body> {
    const response = await call<Body>(method, path, token, body);
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.json)}`).toBeLessThan(300);
    if (response.json === null) throw new Error(`${method} ${path} answered no body`);
    return response.json;
  }

  /** Signs a demo trader in, registers a fresh escrow key and gives it a wallet with ETH for gas. */
  async function signIn(email: string, url = options.url()): Promise<HttpParty> {
    const login = await call<{ access_token: string }>(
      'POST',
      '/api/v1/auth/login',
      null,
      { email, password: 'covenant-demo' },
      url,
    );
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    const token = login.json?.access_token ?? '';
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub: string;
    };
    const walletKey = generatePrivateKey();
    const wallet = privateKeyToAccount(walletKey).address;
    await devnet.setBalance({ address: wallet, value: 10n ** 20n });
    const escrowKey = privateKeyToAccount(generatePrivateKey());
    const party: HttpParty = { email, id: claims.sub, token, escrowKey, walletKey, wallet };
    await expectOk('POST', '/api/v1/wallets/connect', token, { chain: 'ETH', address: escrowKey.address });
    return party;
  }

  /** A deal between the two, agreed through the API (CIS, addresses, terms), with its escrow opened. */
  async function openDeal(buyer: HttpParty, seller: HttpParty, terms: DealTerms): Promise<OpenedDeal> {
    const created = await expectOk('POST', '/api/v1/deals', buyer.token, {
      asset_chain: 'ETH',
      asset_symbol: terms.assetSymbol,
      asset_amount: terms.assetAmount.toString(),
      stable_chain: 'ETH',
      stable_symbol: terms.stableSymbol,
      stable_amount: terms.stableAmount.toString(),
      counterparty_id: seller.id,
    });
    const dealId = created.id;
    for (const party of [buyer, seller]) {
      const sheet = await expectOk('POST', '/api/v1/cis', party.token, {
        legal_name: `${party.email} Holdings`,
        entity_type: 'company',
        jurisdiction: 'CH',
        source_of_funds: 'Retained trading profits',
        assets: [terms.assetSymbol, terms.stableSymbol],
        size_min_usd: 1_000,
        size_max_usd: 1_000_000,
        preferred_chains: ['ETH'],
        settlement_window_hours: 72,
      });
      await expectOk('POST', `/api/v1/deals/${dealId}/cis`, party.token, { cis_id: sheet.id });
    }
    for (const party of [buyer, seller]) {
      await expectOk('POST', `/api/v1/deals/${dealId}/cis/approve`, party.token, {});
    }
    const payouts = new Map<HttpParty, Address>();
    for (const party of [buyer, seller]) {
      const payout = privateKeyToAccount(generatePrivateKey()).address;
      payouts.set(party, payout);
      await expectOk('PUT', `/api/v1/deals/${dealId}/addresses`, party.token, {
        payout_address: payout,
        refund_address: party.wallet,
      });
    }
    const agreed = await expectOk('POST', `/api/v1/deals/${dealId}/terms/accept`, seller.token, {
      version: 1,
    });
    expect(agreed.status).toBe('terms_agreed');
    const escrow = await expectOk<{ legs: { leg: string; deposit_address: Address }[] }>(
      'POST',
      '/api/v1/escrow/create',
      buyer.token,
      { deal_id: dealId },
    );
    const address = (leg: LegName) => escrow.legs.find((entry) => entry.leg === leg)!.deposit_address;
    return {
      dealId,
      asset: address('asset'),
      stable: address('stable'),
      buyerPayout: payouts.get(buyer)!,
      sellerPayout: payouts.get(seller)!,
    };
  }

  /** The party pays `amount` of the token from its own wallet (minted there first); mined when this resolves. */
  function pay(party: HttpParty, symbol: string, to: Address, amount: bigint): Promise<Hex> {
    const token = options.tokens[symbol];
    if (!token) throw new Error(`no devnet token ${symbol}`);
    return fundFromDevnetWallet({ rpcUrl: options.rpcUrl, token, to, amount, fromKey: party.walletKey });
  }

  async function escrowView(party: HttpParty, dealId: string): Promise<EscrowStatusView> {
    return expectOk<EscrowStatusView>('GET', `/api/v1/deals/${dealId}/escrow`, party.token);
  }

  function legOf(view: EscrowStatusView, leg: LegName) {
    const found = view.legs.find((entry) => entry.leg === leg);
    if (!found) throw new Error(`no ${leg} leg`);
    return found;
  }

  /**
   * The party signs what the leg awaits from it (a release or a refund) and sends the approval. The
   * approval is stored before the engine pass it starts; with `mayDie` the server may be killed by
   * that pass before it answers.
   */
  async function approve(party: HttpParty, dealId: string, leg: LegName, mayDie = false): Promise<void> {
    let typedData: EscrowStatusView['legs'][number]['release_typed_data'] = null;
    await waitUntil(`the ${leg} leg to await ${party.email}'s approval`, async () => {
      typedData = legOf(await escrowView(party, dealId), leg).release_typed_data;
      return typedData !== null;
    });
    const signature = await party.escrowKey.signTypedData(typedDataFromJson(typedData!));
    const request = call('POST', '/api/v1/escrow/release', party.token, { deal_id: dealId, leg, signature });
    const answered = mayDie ? await request.catch(() => null) : await request;
    if (answered) expect(answered.status, JSON.stringify(answered.json)).toBe(202);
  }

  /** Polls until `done` holds. */
  async function waitUntil(what: string, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await done().catch(() => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error(`timed out waiting for ${what}\n${options.describe?.() ?? ''}`);
  }

  async function dealStatus(party: HttpParty, dealId: string): Promise<string | undefined> {
    return (await call('GET', `/api/v1/deals/${dealId}`, party.token)).json?.status;
  }

  /** A balance in base units: the token's, or ETH's when `symbol` is ETH. */
  function balance(symbol: string, address: Address): Promise<bigint> {
    const token = options.tokens[symbol];
    if (!token) return chain.getBalance({ address });
    return chain.readContract({
      address: token,
      abi: symbol === 'USDT' ? testTetherTokenAbi : erc20Abi,
      functionName: 'balanceOf',
      args: [address],
    });
  }

  /** The escrow's payouts as the chain logged them: one `Settled` per payout the contract let through. */
  function settledEvents(escrow: Address) {
    return chain.getLogs({
      address: escrow,
      event: getAbiItem({ abi: covenantEscrowAbi, name: 'Settled' }),
      fromBlock: 0n,
      toBlock: 'latest',
    });
  }

  function isSettled(escrow: Address): Promise<boolean> {
    return chain.readContract({ address: escrow, abi: covenantEscrowAbi, functionName: 'settled' });
  }

  return {
    call,
    expectOk,
    signIn,
    openDeal,
    pay,
    escrowView,
    legOf,
    approve,
    waitUntil,
    dealStatus,
    balance,
    settledEvents,
    isSettled,
  };
}

export type HttpDealDriver = ReturnType<typeof httpDealDriver>;
