import { randomBytes } from 'node:crypto';
import { covenantEscrowAbi, testTetherTokenAbi } from '@covenant/contracts';
import { BITCOIN_DEV_WALLET_ADDRESS, fundFromDevnetWallet } from '@covenant/devnets';
import type { EscrowStatusView } from '@covenant/domain';
import { BITCOIN_ADDRESS_FORMATS, type BitcoinAddressFormat } from '@covenant/escrow/bitcoin';
import { typedDataFromJson } from '@covenant/escrow/ethereum';
import type { SolanaSigningPayload } from '@covenant/escrow/solana';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58, base64, hex } from '@scure/base';
import * as btc from '@scure/btc-signer';
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

/**
 * A demo trader signed in over HTTP, with registered escrow keys (an Ethereum account, a Bitcoin key
 * whose compressed public key is its Bitcoin signer) and a wallet of its own on the devnet.
 */
export interface HttpParty {
  email: string;
  id: string;
  /** What its requests carry: the session's access token, or an API key (`withApiKey`). */
  token: string;
  escrowKey: PrivateKeyAccount;
  /** The Bitcoin escrow key: 32 random bytes; its compressed public key is registered on BTC. */
  bitcoinKey: Uint8Array;
  bitcoinPublicKey: string;
  walletKey: Hex;
  wallet: Address;
  /** The Solana escrow key, once `connectSolana` generated and registered it. */
  solana?: SolanaKey;
}

/** An ed25519 key an API user generated itself: 32 random bytes and its base58 address. */
export interface SolanaKey {
  privateKey: Uint8Array;
  address: string;
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

/** A BTC-asset deal with its escrow open: the asset leg is a 2-of-3 P2WSH address, the stable leg an Ethereum escrow. */
export interface OpenedBitcoinDeal {
  dealId: string;
  /** The asset leg's P2WSH deposit address. */
  asset: string;
  stable: Address;
  /** The buyer is paid the bitcoin here (P2WPKH of a fresh key). */
  buyerPayout: string;
  /** The seller's bitcoin goes back here on a refund. */
  sellerRefund: string;
  sellerPayout: Address;
  /** The legs as `POST /escrow/create` answered. */
  legs: CreatedLeg[];
}

export interface CreatedLeg {
  leg: LegName;
  chain: string;
  symbol: string;
  amount: string;
  deposit_address: string;
  custody?: { witness_script?: string; public_keys?: Record<string, string> } & Record<string, unknown>;
}

/** A SOL-asset deal with its escrow open: the asset leg a wrapped-SOL account under a 2-of-3 SPL multisig. */
export interface OpenedSolanaDeal {
  dealId: string;
  /** The asset leg's wrapped-SOL token account (its deposit address). */
  asset: string;
  stable: Address;
  /** The buyer is paid the SOL here (a fresh system account nobody funded). */
  buyerPayout: string;
  /** The seller's SOL goes back here on a refund. */
  sellerRefund: string;
  sellerPayout: Address;
  legs: CreatedLeg[];
}

/** One output of a Bitcoin transaction as the node shows it: its address and amount in satoshis. */
export interface BitcoinOutput {
  vout: number;
  address: string | null;
  amount: bigint;
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
    expect(
      response.status,
      `${method} ${path}: ${JSON.stringify(response.json)}${response.status >= 500 ? `\n${options.describe?.() ?? ''}` : ''}`,
    ).toBeLessThan(300);
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
    const bitcoinKey = new Uint8Array(randomBytes(32));
    const bitcoinPublicKey = hex.encode(secp256k1.getPublicKey(bitcoinKey, true));
    const party: HttpParty = {
      email,
      id: claims.sub,
      token,
      escrowKey,
      bitcoinKey,
      bitcoinPublicKey,
      walletKey,
      wallet,
    };
    await expectOk('POST', '/api/v1/wallets/connect', token, { chain: 'ETH', address: escrowKey.address });
    // Registering a signer is a sensitive action (a session that just signed in), never an API key's.
    await expectOk('POST', '/api/v1/wallets/connect', token, { chain: 'BTC', public_key: bitcoinPublicKey });
    return party;
  }

  /**
   * The party with a new API key of its own (read and trade scopes) in place of its session: what
   * an API user's program holds. Creating the key needs the session (a sensitive action).
   */
  async function withApiKey(party: HttpParty): Promise<HttpParty> {
    const created = await expectOk<{ key: string; scopes: string[] }>(
      'POST',
      '/api/v1/api-keys',
      party.token,
      {
        name: `${party.email} trading bot`,
        scopes: ['read', 'trade'],
      },
    );
    expect(created.scopes).toEqual(['read', 'trade']);
    return { ...party, token: created.key };
  }

  /**
   * A deal between the two, agreed through the API (CIS, addresses, terms), with its escrow opened;
   * `addressesOf` gives each party's payout and refund addresses.
   */
  async function agreeAndOpen(
    buyer: HttpParty,
    seller: HttpParty,
    terms: DealTerms & { assetChain: 'ETH' | 'BTC' | 'SOL' },
    addressesOf: (party: HttpParty) => { payout: string; refund: string },
    createEscrow: (dealId: string) => Promise<CreatedLeg[]> = createEscrowOf(buyer),
  ): Promise<{ dealId: string; legs: CreatedLeg[] }> {
    const chains = terms.assetChain === 'ETH' ? ['ETH'] : [terms.assetChain, 'ETH'];
    const created = await expectOk('POST', '/api/v1/deals', buyer.token, {
      asset_chain: terms.assetChain,
      asset_symbol: terms.assetSymbol,
      asset_amount: terms.assetAmount.toString(),
      stable_chain: 'ETH',
      stable_symbol: terms.stableSymbol,
      stable_amount: terms.stableAmount.toString(),
      counterparty_id: seller.id,
    });
    const dealId = created.id;
    const sheets: string[] = [];
    for (const party of [buyer, seller]) {
      const sheet = await expectOk('POST', '/api/v1/cis', party.token, {
        legal_name: `${party.email} Holdings`,
        entity_type: 'company',
        jurisdiction: 'CH',
        source_of_funds: 'Retained trading profits',
        assets: [terms.assetSymbol, terms.stableSymbol],
        size_min_usd: 1_000,
        size_max_usd: 1_000_000,
        preferred_chains: chains,
        settlement_window_hours: 72,
      });
      await expectOk('POST', `/api/v1/deals/${dealId}/cis`, party.token, { cis_id: sheet.id });
      sheets.push(sheet.id);
    }
    // Each approves the sheet the other attached.
    const [buyerSheet, sellerSheet] = sheets;
    await expectOk('POST', `/api/v1/deals/${dealId}/cis/approve`, buyer.token, { cis_id: sellerSheet });
    await expectOk('POST', `/api/v1/deals/${dealId}/cis/approve`, seller.token, { cis_id: buyerSheet });
    for (const party of [buyer, seller]) {
      const { payout, refund } = addressesOf(party);
      await expectOk('PUT', `/api/v1/deals/${dealId}/addresses`, party.token, {
        payout_address: payout,
        refund_address: refund,
      });
    }
    const agreed = await expectOk('POST', `/api/v1/deals/${dealId}/terms/accept`, seller.token, {
      version: 1,
    });
    expect(agreed.status).toBe('terms_agreed');
    return { dealId, legs: await createEscrow(dealId) };
  }

  /** `POST /escrow/create` by `party`, which must succeed; the legs it answers. */
  function createEscrowOf(party: HttpParty) {
    return async (dealId: string): Promise<CreatedLeg[]> =>
      (
        await expectOk<{ legs: CreatedLeg[] }>('POST', '/api/v1/escrow/create', party.token, {
          deal_id: dealId,
        })
      ).legs;
  }

  /**
   * A deal between the two on Ethereum, agreed through the API (CIS, addresses, terms), with its
   * escrow opened by `createEscrow` (by default the buyer's `POST /escrow/create`, which must succeed).
   */
  async function openDeal(
    buyer: HttpParty,
    seller: HttpParty,
    terms: DealTerms,
    createEscrow?: (dealId: string) => Promise<CreatedLeg[]>,
  ): Promise<OpenedDeal> {
    const payouts = new Map<HttpParty, Address>();
    const { dealId, legs } = await agreeAndOpen(
      buyer,
      seller,
      { ...terms, assetChain: 'ETH' },
      (party) => {
        const payout = privateKeyToAccount(generatePrivateKey()).address;
        payouts.set(party, payout);
        return { payout, refund: party.wallet };
      },
      createEscrow,
    );
    const address = (leg: LegName) => legs.find((entry) => entry.leg === leg)!.deposit_address as Address;
    return {
      dealId,
      asset: address('asset'),
      stable: address('stable'),
      buyerPayout: payouts.get(buyer)!,
      sellerPayout: payouts.get(seller)!,
    };
  }

  /**
   * A deal of BTC (the asset leg, `terms.assetSymbol` is BTC) against a stablecoin on Ethereum,
   * agreed through the API, with its escrow opened. The buyer is paid the bitcoin at a fresh P2WPKH
   * address, the seller's bitcoin refund address is another; on Ethereum as `openDeal`.
   */
  async function openBitcoinDeal(
    buyer: HttpParty,
    seller: HttpParty,
    terms: DealTerms,
  ): Promise<OpenedBitcoinDeal> {
    const format = await bitcoinAddressFormat();
    const freshBitcoinAddress = () =>
      btc.p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true), format).address as string;
    const buyerPayout = freshBitcoinAddress();
    const sellerRefund = freshBitcoinAddress();
    const sellerPayout = privateKeyToAccount(generatePrivateKey()).address;
    const { dealId, legs } = await agreeAndOpen(buyer, seller, { ...terms, assetChain: 'BTC' }, (party) =>
      party === buyer
        ? { payout: buyerPayout, refund: buyer.wallet }
        : { payout: sellerPayout, refund: sellerRefund },
    );
    const address = (leg: LegName) => legs.find((entry) => entry.leg === leg)!.deposit_address;
    return {
      dealId,
      asset: address('asset'),
      stable: address('stable') as Address,
      buyerPayout,
      sellerRefund,
      sellerPayout,
      legs,
    };
  }

  /**
   * A deal of SOL (the asset leg) against a stablecoin on Ethereum, agreed through the API, with its
   * escrow opened. Both parties need their Solana key registered (`connectSolana`): the leg's
   * multisig is of the buyer's, the seller's and the platform's keys. The buyer is paid the SOL at a
   * fresh address, the seller's SOL refund address is another.
   */
  async function openSolanaDeal(
    buyer: HttpParty,
    seller: HttpParty,
    terms: DealTerms,
  ): Promise<OpenedSolanaDeal> {
    const buyerPayout = freshSolanaKey().address;
    const sellerRefund = freshSolanaKey().address;
    const sellerPayout = privateKeyToAccount(generatePrivateKey()).address;
    const { dealId, legs } = await agreeAndOpen(buyer, seller, { ...terms, assetChain: 'SOL' }, (party) =>
      party === buyer
        ? { payout: buyerPayout, refund: buyer.wallet }
        : { payout: sellerPayout, refund: sellerRefund },
    );
    const address = (leg: LegName) => legs.find((entry) => entry.leg === leg)!.deposit_address;
    return {
      dealId,
      asset: address('asset'),
      stable: address('stable') as Address,
      buyerPayout,
      sellerRefund,
      sellerPayout,
      legs,
    };
  }

  /** A fresh ed25519 key, as an API user generates its own. */
  function freshSolanaKey(): SolanaKey {
    const privateKey = new Uint8Array(randomBytes(32));
    return { privateKey, address: base58.encode(ed25519.getPublicKey(privateKey)) };
  }

  /**
   * The party generates an ed25519 key and registers its address on SOL with its session (a
   * sensitive action: `party.token` must be a session's, not an API key's). The party with the key.
   */
  async function connectSolana(party: HttpParty): Promise<HttpParty & { solana: SolanaKey }> {
    const solana = freshSolanaKey();
    const connected = await expectOk<{ chain: string; address: string }>(
      'POST',
      '/api/v1/wallets/connect',
      party.token,
      { chain: 'SOL', address: solana.address },
    );
    expect(connected).toMatchObject({ chain: 'SOL', address: solana.address });
    return { ...party, solana };
  }

  /**
   * Waits until the Solana leg awaits `party`'s signature; its `signing_payload` (the message, base64,
   * and the transfers it makes).
   */
  async function solanaPayload(
    party: HttpParty,
    dealId: string,
    leg: LegName,
  ): Promise<SolanaSigningPayload> {
    if (!party.solana) throw new Error(`${party.email} has no Solana key`);
    const address = party.solana.address;
    let payload: SolanaSigningPayload | null = null;
    await waitUntil(`the ${leg} leg's message to await ${party.email}'s signature`, async () => {
      const view = legOf(await escrowView(party, dealId), leg);
      payload = view.signing_payload as SolanaSigningPayload | null;
      return payload?.format === 'solana_message' && view.signer === address;
    });
    return payload as unknown as SolanaSigningPayload;
  }

  /**
   * The party signs the Solana leg's message (`signing_payload`) with its ed25519 key and posts the
   * signature in `encoding` (base58 as wallets give it, or hex). Returns the payload it signed and
   * the signature. With `mayDie` the server may be killed by the pass the approval starts.
   */
  async function approveSolana(
    party: HttpParty,
    dealId: string,
    leg: LegName,
    encoding: 'base58' | 'hex' = 'base58',
    mayDie = false,
  ): Promise<{ payload: SolanaSigningPayload; signature: Uint8Array }> {
    const payload = await solanaPayload(party, dealId, leg);
    const signature = signSolana(payload.data, party.solana!.privateKey);
    const request = call('POST', '/api/v1/escrow/release', party.token, {
      deal_id: dealId,
      leg,
      signature: encoding === 'hex' ? hex.encode(signature) : base58.encode(signature),
    });
    const answered = mayDie ? await request.catch(() => null) : await request;
    if (answered) expect(answered.status, JSON.stringify(answered.json)).toBe(202);
    return { payload, signature };
  }

  /** An ed25519 signature of the message (base64, as `signing_payload.data` carries it): 64 bytes. */
  function signSolana(messageBase64: string, privateKey: Uint8Array): Uint8Array {
    return ed25519.sign(base64.decode(messageBase64), privateKey);
  }

  /** The SOL entry of `GET /chains` on the running server (its devnet's URL changes at each start). */
  async function solanaChainEntry(): Promise<{
    rpc_url?: string;
    network?: string;
    fee_address: string;
    tokens: { symbol: string; address: string | null; decimals: number }[];
  }> {
    const chains = await call<{
      data: {
        chain: string;
        rpc_url?: string;
        network?: string;
        fee_address: string;
        tokens: { symbol: string; address: string | null; decimals: number }[];
      }[];
    }>('GET', '/api/v1/chains', null);
    const entry = chains.json?.data.find((chain) => chain.chain === 'SOL');
    if (!entry) throw new Error(`GET /chains lists no SOL: ${JSON.stringify(chains.json)}`);
    return entry;
  }

  /** One JSON-RPC call to the server's Solana devnet, as any Solana client makes it. */
  async function solanaRpc<T>(method: string, params: unknown[] = []): Promise<T> {
    const rpcUrl = (await solanaChainEntry()).rpc_url;
    if (!rpcUrl) throw new Error('GET /chains shows no rpc_url for SOL (not a local devnet?)');
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const reply = (await response.json()) as { result: T; error?: { code: number; message: string } };
    if (reply.error) throw new Error(`solana ${method}: ${reply.error.message} (${reply.error.code})`);
    return reply.result;
  }

  /** Lamports at an address, finalized (0 when no account is there). */
  async function solanaLamports(address: string): Promise<bigint> {
    const reply = await solanaRpc<{ value: number }>('getBalance', [address, { commitment: 'finalized' }]);
    return BigInt(reply.value);
  }

  /** Whether an account exists at the address (finalized). */
  async function solanaAccountExists(address: string): Promise<boolean> {
    const reply = await solanaRpc<{ value: unknown }>('getAccountInfo', [
      address,
      { encoding: 'base64', commitment: 'finalized' },
    ]);
    return reply.value !== null;
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

  /**
   * The seller (or whoever the leg awaits) signs the Bitcoin leg's payout PSBT from the status's
   * `signing_payload` with its Bitcoin key and posts it back. Returns the PSBT it signed (the
   * unsigned transaction's id is the payout's txid) and the summary it was shown.
   */
  async function approveBitcoin(
    party: HttpParty,
    dealId: string,
    leg: LegName,
    mayDie = false,
  ): Promise<{ txid: string; summary: BitcoinSummary }> {
    let payload: BitcoinSigningPayload | null = null;
    await waitUntil(`the ${leg} leg's PSBT to await ${party.email}'s signature`, async () => {
      const view = legOf(await escrowView(party, dealId), leg);
      payload = view.signing_payload as BitcoinSigningPayload | null;
      return payload !== null && view.signer === party.bitcoinPublicKey;
    });
    const { data, summary } = payload as unknown as BitcoinSigningPayload;
    expect((payload as unknown as BitcoinSigningPayload).format).toBe('psbt');
    const psbt = signPsbt(data, party.bitcoinKey);
    const request = call('POST', '/api/v1/escrow/release', party.token, { deal_id: dealId, leg, psbt });
    const answered = mayDie ? await request.catch(() => null) : await request;
    if (answered) expect(answered.status, JSON.stringify(answered.json)).toBe(202);
    return { txid: btc.Transaction.fromPSBT(base64.decode(data)).id, summary };
  }

  /** What a PSBT-capable wallet does: signs every input with `key` (SIGHASH_ALL) and returns the PSBT, base64. */
  function signPsbt(psbtBase64: string, key: Uint8Array): string {
    const tx = btc.Transaction.fromPSBT(base64.decode(psbtBase64));
    for (let index = 0; index < tx.inputsLength; index++) tx.signIdx(key, index);
    return base64.encode(tx.toPSBT());
  }

  /** The BTC entry of `GET /chains` on the running server (its node's URL changes at each start). */
  async function bitcoinChainEntry(): Promise<{ rpc_url?: string; network?: string; fee_address: string }> {
    const chains = await call<{
      data: { chain: string; rpc_url?: string; network?: string; fee_address: string }[];
    }>('GET', '/api/v1/chains', null);
    const entry = chains.json?.data.find((chain) => chain.chain === 'BTC');
    if (!entry) throw new Error(`GET /chains lists no BTC: ${JSON.stringify(chains.json)}`);
    return entry;
  }

  async function bitcoinAddressFormat(): Promise<BitcoinAddressFormat> {
    const network = (await bitcoinChainEntry()).network;
    if (network !== 'mainnet' && network !== 'testnet' && network !== 'regtest') {
      throw new Error(`unknown Bitcoin network ${network}`);
    }
    return BITCOIN_ADDRESS_FORMATS[network];
  }

  /** The node behind the running server: its URL and basic-auth header, from the `rpc_url` local requests see. */
  async function bitcoinNode(): Promise<{ url: string; authorization: string }> {
    const rpcUrl = (await bitcoinChainEntry()).rpc_url;
    if (!rpcUrl) throw new Error('GET /chains shows no rpc_url for BTC (not a local devnet?)');
    const parsed = new URL(rpcUrl);
    const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    parsed.username = '';
    parsed.password = '';
    return {
      url: parsed.toString().replace(/\/$/, ''),
      authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
    };
  }

  /** One JSON-RPC call to the server's Bitcoin node. */
  async function bitcoinRpc<T>(method: string, params: unknown[] = []): Promise<T> {
    const node = await bitcoinNode();
    const response = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: node.authorization },
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
    });
    const reply = (await response.json()) as { result: T; error: { code: number; message: string } | null };
    if (reply.error) throw new Error(`bitcoin ${method}: ${reply.error.message} (${reply.error.code})`);
    return reply.result;
  }

  /** Mines `blocks` blocks on the server's node (to the dev wallet); their hashes. */
  function mineBitcoin(blocks = 1): Promise<string[]> {
    return bitcoinRpc<string[]>('generatetoaddress', [blocks, BITCOIN_DEV_WALLET_ADDRESS]);
  }

  /** A transaction's outputs as the node shows it (`getrawtransaction <txid> true`), amounts in satoshis. */
  async function bitcoinOutputs(txid: string): Promise<BitcoinOutput[]> {
    const tx = await bitcoinRpc<{
      vout: { n: number; value: number; scriptPubKey: { address?: string; addresses?: string[] } }[];
    }>('getrawtransaction', [txid, true]);
    const format = await bitcoinAddressFormat();
    const raw = await bitcoinRpc<string>('getrawtransaction', [txid, false]);
    // Amounts from the raw bytes, not the node's BTC floats.
    const parsed = btc.Transaction.fromRaw(hex.decode(raw), { allowUnknownOutputs: true });
    return tx.vout.map((output) => {
      const exact = parsed.getOutput(output.n);
      let address: string | null = null;
      try {
        address = exact.script ? btc.Address(format).encode(btc.OutScript.decode(exact.script)) : null;
      } catch {
        address = null;
      }
      return { vout: output.n, address, amount: exact.amount ?? 0n };
    });
  }

  /** How many blocks deep the transaction is (0 in the mempool); null when the node does not know it. */
  async function bitcoinConfirmations(txid: string): Promise<number | null> {
    try {
      const tx = await bitcoinRpc<{ confirmations?: number }>('getrawtransaction', [txid, true]);
      return tx.confirmations ?? 0;
    } catch {
      return null;
    }
  }

  /** The unspent outputs paying `address`, from bcoin's address index (`GET /coin/address/<address>`). */
  async function bitcoinCoinsAt(address: string): Promise<{ txid: string; vout: number; amount: bigint }[]> {
    const node = await bitcoinNode();
    const response = await fetch(`${node.url}/coin/address/${address}`, {
      headers: { authorization: node.authorization },
    });
    expect(response.status).toBe(200);
    const coins = (await response.json()) as { hash: string; index: number; value: number }[];
    return coins.map((coin) => ({ txid: coin.hash, vout: coin.index, amount: BigInt(coin.value) }));
  }

  /** What `address` holds unspent, in satoshis. */
  async function bitcoinBalance(address: string): Promise<bigint> {
    return (await bitcoinCoinsAt(address)).reduce((sum, coin) => sum + coin.amount, 0n);
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
    withApiKey,
    openDeal,
    openBitcoinDeal,
    openSolanaDeal,
    connectSolana,
    freshSolanaKey,
    solanaPayload,
    approveSolana,
    signSolana,
    solanaChainEntry,
    solanaRpc,
    solanaLamports,
    solanaAccountExists,
    pay,
    escrowView,
    legOf,
    approve,
    waitUntil,
    dealStatus,
    balance,
    settledEvents,
    isSettled,
    approveBitcoin,
    signPsbt,
    bitcoinChainEntry,
    bitcoinAddressFormat,
    bitcoinRpc,
    mineBitcoin,
    bitcoinOutputs,
    bitcoinConfirmations,
    bitcoinCoinsAt,
    bitcoinBalance,
  };
}

export type HttpDealDriver = ReturnType<typeof httpDealDriver>;

/** What the deal room shows before a Bitcoin payout is signed (amounts in satoshis, decimal strings). */
export interface BitcoinSummary {
  outputs: { kind: 'payout' | 'fee' | 'refund'; to: string; amount: string }[];
  network_fee: string;
  /** The part of `network_fee` out of the depositor's refund, for deposit outputs the payout did not need. */
  refund_network_fee: string;
  fee_rate_sat_vb: string;
  dust_folded: { kind: 'payout' | 'fee' | 'refund'; to: string; amount: string }[];
}

interface BitcoinSigningPayload {
  format: 'psbt';
  data: string;
  summary: BitcoinSummary;
}
