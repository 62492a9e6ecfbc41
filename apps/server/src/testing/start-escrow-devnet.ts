import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testTetherTokenAbi } from '@covenant/contracts';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { fundFromDevnetWallet } from '@covenant/devnets';
import type { Meeting } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type Address, createPublicClient, createTestClient, erc20Abi, type Hex, http } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { buildTestApp } from '../build-test-app.js';
import type { ChainInfo, ChainRegistry } from '../chains/chain-registry.js';
import { startEthereumDevnet } from '../chains/start-ethereum-devnet.js';
import {
  type BitcoinPartyWallet,
  type BitcoinTestNode,
  bitcoinPartyWallet,
  startBitcoinTestNode,
} from './bitcoin-test-wallet.js';
import { createTestTrader, signInAgain, type TestTrader } from './create-test-trader.js';
import {
  type SolanaPartyWallet,
  type SolanaTestNode,
  solanaPartyWallet,
  startSolanaTestNode,
} from './solana-test-wallet.js';

/** A party of an escrow test: a trader, its escrow signing key (registered), and its own wallet on the devnet. */
export interface EscrowParty extends TestTrader {
  /** The escrow key the party signs payouts with (registered with wallets/connect). */
  escrowKey: PrivateKeyAccount;
  /** The party's wallet: it pays deposits and receives refunds. */
  walletKey: Hex;
  wallet: Address;
  /** A fresh address the party is paid at (balance 0 at the start). */
  payoutAddress: Address;
  /** With Bitcoin on: the party's Bitcoin escrow key (registered) and its fresh payout and refund addresses. */
  bitcoin: BitcoinPartyWallet | null;
  /** With Solana on: the party's Solana escrow key (registered) and its fresh payout and refund wallets. */
  solana: SolanaPartyWallet | null;
}

export interface EscrowDevnet {
  database: Database;
  app: FastifyInstance;
  chain: ChainInfo;
  /** The local Bitcoin regtest node, when started with `bitcoin: true` (BTC in the server's registry). */
  bitcoin: BitcoinTestNode | null;
  /** The local Solana devnet, when started with `solana: true` (SOL in the server's registry). */
  solana: SolanaTestNode | null;
  buyer: EscrowParty;
  seller: EscrowParty;
  /** The server's clock: tests move it to pass deadlines (the parties sign in again, their tokens expire). */
  clock: { now: Date; advance(ms: number): Promise<void> };
  call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    token: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  token(symbol: string): Address | null;
  /**
   * A deal between buyer and seller put straight into `terms_agreed` with both parties' addresses
   * (each on the chain of the leg it is paid or refunded on); its id. Legs are on ETH unless told.
   */
  agreedDeal(terms: {
    assetSymbol: string;
    assetAmount: bigint;
    assetChain?: 'ETH' | 'BTC' | 'SOL';
    stableSymbol: string;
    stableAmount: bigint;
    stableChain?: 'ETH' | 'SOL';
    fundingDeadlineHours?: number;
    /** Terms that require this meeting. */
    meeting?: Meeting;
  }): Promise<string>;
  /** The party pays `amount` of the symbol from its own wallet to `to`; the mined transaction hash. */
  pay(party: EscrowParty, symbol: string, to: string, amount: bigint): Promise<Hex>;
  balance(symbol: string, address: string): Promise<bigint>;
  /** Takes a snapshot of the chain, and goes back to one: with mining in between, a reorg. */
  snapshot(): Promise<Hex>;
  revert(id: Hex): Promise<void>;
  /** Mines blocks, and moves the chain's clock forward by `seconds` first when given. */
  mine(blocks: number, seconds?: number): Promise<void>;
  /** Turns the devnet's mining of each transaction as it arrives off (transactions wait in the mempool) or on again. */
  automine(on: boolean): Promise<void>;
  /** Runs engine passes until `done` holds (at most `passes`), mining a block (on each chain) between passes. */
  settle(done: () => Promise<boolean>, passes?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole server on a fresh test database and a fresh Ethereum devnet (anvil with the factory and
 * tokens), the engine's passes run by the test (`app.escrow.tick()`), a movable clock, and a buyer
 * and seller who each registered an escrow key and hold a funded wallet. With `bitcoin`, a bcoin
 * regtest node in memory too (deposits count at 2 blocks), and each party registers a Bitcoin key.
 */
export async function startEscrowDevnet(
  options: {
    confirmations?: number;
    bitcoin?: boolean;
    /** The most deposit outputs a Bitcoin payout spends (the adapter's 500 without it). */
    bitcoinMaxPayoutInputs?: number;
    solana?: boolean;
    /** Server settings on top of the file's (ESCROW_POLL_MS=0). */
    env?: Record<string, string>;
  } = {},
): Promise<EscrowDevnet> {
  const dataDir = await mkdtemp(join(tmpdir(), 'covenant-escrow-'));
  const devnet = await startEthereumDevnet({ dataDir, confirmations: options.confirmations ?? 2 });
  let bitcoin: BitcoinTestNode | null = null;
  let solana: SolanaTestNode | null = null;
  try {
    if (options.bitcoin) {
      bitcoin = await startBitcoinTestNode(
        2,
        options.bitcoinMaxPayoutInputs === undefined
          ? {}
          : { maxPayoutInputs: options.bitcoinMaxPayoutInputs },
      );
    }
    if (options.solana) solana = await startSolanaTestNode(2);
  } catch (error) {
    await Promise.allSettled([devnet.stop(), bitcoin?.regtest.stop()]);
    throw error;
  }
  const registry: ChainRegistry = {
    chains: [devnet.info, ...(bitcoin ? [bitcoin.info] : []), ...(solana ? [solana.info] : [])],
    stop: async () => {
      await Promise.allSettled([devnet.stop(), bitcoin?.regtest.stop(), solana?.devnet.stop()]);
    },
  };
  const database = await createTestDatabase();
  const parties: EscrowParty[] = [];
  const clock = {
    now: new Date(),
    async advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
      for (const party of parties) party.token = await signInAgain(testApp.app, party);
    },
  };
  const testApp = await buildTestApp({
    database,
    chains: registry,
    clock: () => clock.now,
    env: { ESCROW_POLL_MS: '0', ...options.env },
    jobs: { send: async () => {} },
  });
  const { app } = testApp;
  const transport = http(devnet.info.rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain: foundry, transport, cacheTime: 0, pollingInterval: 50 });
  const testClient = createTestClient({ chain: foundry, mode: 'anvil', transport });
  const call: EscrowDevnet['call'] = (method, url, token, payload) =>
    app.inject({
      method,
      url,
      payload: payload as Record<string, unknown> | undefined,
      headers: { authorization: `Bearer ${token}` },
    });

  const party = async (): Promise<EscrowParty> => {
    // Institutional, for the seven-figure deals some tests open (the escrow checks both tier limits).
    const trader = await createTestTrader(app, { tradingTier: 'institutional', tierLimitUsd: '10000000' });
    const escrowKey = privateKeyToAccount(generatePrivateKey());
    const walletKey = generatePrivateKey();
    const wallet = privateKeyToAccount(walletKey).address;
    await testClient.setBalance({ address: wallet, value: 10n ** 21n });
    const connected = await call('POST', '/api/v1/wallets/connect', trader.token, {
      chain: 'ETH',
      address: escrowKey.address,
    });
    if (connected.statusCode !== 200 && connected.statusCode !== 201) {
      throw new Error(`wallet not connected: ${connected.body}`);
    }
    const bitcoinWallet = bitcoin ? bitcoinPartyWallet() : null;
    if (bitcoinWallet) {
      const registered = await call('POST', '/api/v1/wallets/connect', trader.token, {
        chain: 'BTC',
        public_key: bitcoinWallet.publicKey,
      });
      if (registered.statusCode !== 200 && registered.statusCode !== 201) {
        throw new Error(`Bitcoin key not registered: ${registered.body}`);
      }
    }
    const solanaWallet = solana ? solanaPartyWallet() : null;
    if (solanaWallet) {
      const registered = await call('POST', '/api/v1/wallets/connect', trader.token, {
        chain: 'SOL',
        address: solanaWallet.address,
      });
      if (registered.statusCode !== 200 && registered.statusCode !== 201) {
        throw new Error(`Solana key not registered: ${registered.body}`);
      }
    }
    return {
      ...trader,
      escrowKey,
      walletKey,
      wallet,
      payoutAddress: privateKeyToAccount(generatePrivateKey()).address,
      bitcoin: bitcoinWallet,
      solana: solanaWallet,
    };
  };
  const buyer = await party();
  const seller = await party();
  parties.push(buyer, seller);
  const token = (symbol: string) =>
    (devnet.info.tokens.find((entry) => entry.symbol === symbol)?.address ?? null) as Address | null;

  return {
    database,
    app,
    chain: devnet.info,
    bitcoin,
    solana,
    buyer,
    seller,
    clock,
    call,
    token,
    async agreedDeal(terms) {
      const now = clock.now;
      const assetChain = terms.assetChain ?? 'ETH';
      const stableChain = terms.stableChain ?? 'ETH';
      // The buyer is paid on the asset leg's chain and refunded on the stable leg's; the seller the other way round.
      const addressOn = (party: EscrowParty, chain: 'ETH' | 'BTC' | 'SOL', use: 'payout' | 'refund') => {
        if (chain === 'ETH') return use === 'payout' ? party.payoutAddress : party.wallet;
        if (chain === 'SOL') {
          if (!party.solana) throw new Error('a Solana leg needs the devnet started with solana: true');
          return use === 'payout' ? party.solana.payoutAddress : party.solana.refundAddress;
        }
        if (!party.bitcoin) throw new Error('a Bitcoin leg needs the devnet started with bitcoin: true');
        return use === 'payout' ? party.bitcoin.payoutAddress : party.bitcoin.refundAddress;
      };
      const [deal] = await database.db
        .insert(schema.deals)
        .values({
          buyerId: buyer.id,
          sellerId: seller.id,
          assetChain,
          assetSymbol: terms.assetSymbol,
          assetAmount: terms.assetAmount.toString(),
          stableChain,
          stableSymbol: terms.stableSymbol,
          stableAmount: terms.stableAmount.toString(),
          status: 'terms_agreed',
          fundingDeadlineHours: terms.fundingDeadlineHours ?? 24,
          meetingRequired: terms.meeting !== undefined,
          travelLocation: terms.meeting?.location ?? null,
          meeting: terms.meeting ? { ...terms.meeting } : null,
          acceptedTermsVersion: 1,
          termsHash: 'test',
          termsAgreedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: schema.deals.id });
      await database.db.insert(schema.dealAddresses).values([
        {
          dealId: deal!.id,
          party: 'buyer',
          payoutAddress: addressOn(buyer, assetChain, 'payout'),
          refundAddress: addressOn(buyer, stableChain, 'refund'),
        },
        {
          dealId: deal!.id,
          party: 'seller',
          payoutAddress: addressOn(seller, stableChain, 'payout'),
          refundAddress: addressOn(seller, assetChain, 'refund'),
        },
      ]);
      return deal!.id;
    },
    pay: (from, symbol, to, amount) =>
      fundFromDevnetWallet({
        rpcUrl: devnet.info.rpcUrl,
        token: token(symbol),
        to: to as Address,
        amount,
        fromKey: from.walletKey,
      }),
    async balance(symbol, address) {
      const tokenAddress = token(symbol);
      if (!tokenAddress) return publicClient.getBalance({ address: address as Address });
      return publicClient.readContract({
        address: tokenAddress,
        abi: symbol === 'USDT' ? testTetherTokenAbi : erc20Abi,
        functionName: 'balanceOf',
        args: [address as Address],
      });
    },
    snapshot: () => testClient.snapshot(),
    async revert(id) {
      await testClient.revert({ id });
    },
    async mine(blocks, seconds) {
      if (seconds) await testClient.increaseTime({ seconds });
      await testClient.mine({ blocks });
    },
    automine: (on) => testClient.setAutomine(on),
    async settle(done, passes = 12) {
      for (let pass = 0; pass < passes; pass++) {
        await app.escrow.tick();
        if (await done()) return;
        await testClient.mine({ blocks: 1 });
        await bitcoin?.mine(1);
        // Solana's slots advance on the devnet's own timer: wait a few.
        if (solana) await new Promise((resolve) => setTimeout(resolve, 150));
      }
      throw new Error('the escrow did not get there within the passes allowed');
    },
    async close() {
      await testApp.close();
      await database.close();
      await registry.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The deal's status as stored. */
export async function dealStatus(database: Database, dealId: string): Promise<string | undefined> {
  const [deal] = await database.db
    .select({ status: schema.deals.status })
    .from(schema.deals)
    .where(eq(schema.deals.id, dealId));
  return deal?.status;
}

/** Every payout row of the deal's escrow (superseded ones too), in no particular order. */
export async function escrowPayoutsOf(database: Database, dealId: string) {
  const [escrow] = await database.db.select().from(schema.escrows).where(eq(schema.escrows.dealId, dealId));
  if (!escrow) throw new Error(`deal ${dealId} has no escrow`);
  return database.db.select().from(schema.escrowPayouts).where(eq(schema.escrowPayouts.escrowId, escrow.id));
}
