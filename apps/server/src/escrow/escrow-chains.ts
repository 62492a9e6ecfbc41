import { join } from 'node:path';
import { type Database, type Db, schema } from '@covenant/db';
import { fundFromDevnetWallet } from '@covenant/devnets';
import type { ConfirmationPolicy, EscrowChainAdapter } from '@covenant/escrow';
import { BITCOIN_ADDRESS_FORMATS, createBitcoinEscrowChain } from '@covenant/escrow/bitcoin';
import { createEthereumEscrowChain } from '@covenant/escrow/ethereum';
import { createSolanaEscrowChain } from '@covenant/escrow/solana';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Address, createTestClient, http, isAddress, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { ChainInfo, ChainRegistry, EthereumChainInfo } from '../chains/chain-registry.js';
import type { Confirmations } from '../config.js';
import { loadOrCreateKeyFile } from './key-file.js';
import type { PlatformSigner } from './platform-signer.js';

/**
 * A chain the engine runs escrows on: what clients are told about it, and its adapter. The engine
 * uses the chain-generic `EscrowChainAdapter` only, so a chain plugs in by providing one.
 */
export interface EscrowChain {
  info: ChainInfo;
  adapter: EscrowChainAdapter;
  /**
   * Local devnets only: pays `amount` of the token (null = the chain's coin) to `to` from the
   * devnet's wallet (`POST /api/v1/dev/fund`); the transaction's reference.
   */
  devFund?(to: string, tokenAddress: string | null, amount: bigint): Promise<string>;
  /**
   * Runs `work` alone among the relayer's transactions, in this process and in every other server
   * process on the database: each is signed with the relayer's next nonce, so two signed before
   * either is sent would collide. Deployments, payouts, refunds, sweeps and wrong-token returns
   * take their turn here from signing to broadcast, never while waiting for a block (ADR 028).
   */
  relayerTurn<T>(work: () => Promise<T>): Promise<T>;
}

export type EscrowChains = ReadonlyMap<string, EscrowChain>;

/** The database's locks across server processes. */
export type DatabaseLocks = Pick<Database, 'exclusively' | 'tryExclusively'>;

/** Depth shown while a `finalized` policy waits for finality: two epochs of 32 slots. */
const finalizedDepth = 64;

export function confirmationPolicyOf(confirmations: Confirmations): ConfirmationPolicy {
  return confirmations === 'finalized'
    ? { finality: 'finalized', confirmations: finalizedDepth }
    : { finality: 'depth', confirmations };
}

/** Builds one chain's adapter (and devnet helpers) from its registry entry. */
type EscrowChainFactory = (
  info: ChainInfo,
  context: { dataDir: string; logger: FastifyBaseLogger; signer: PlatformSigner; db: Db },
) => Promise<Omit<EscrowChain, 'relayerTurn'>>;

/** The adapter of each chain the engine supports; a chain in the registry without one is skipped with a warning. */
const escrowChainFactories: Partial<Record<ChainInfo['chain'], EscrowChainFactory>> = {
  ETH: createEthereumChain,
  BTC: createBitcoinChain,
  SOL: createSolanaChain,
};

/**
 * An adapter for every chain of the registry, each built with the platform's key, and the turns of
 * its platform transactions across server processes.
 */
export async function createEscrowChains(
  registry: ChainRegistry,
  dataDir: string,
  logger: FastifyBaseLogger,
  database: DatabaseLocks & Pick<Database, 'db'>,
  signer: PlatformSigner,
): Promise<EscrowChains> {
  const chains = new Map<string, EscrowChain>();
  for (const info of registry.chains) {
    const factory = escrowChainFactories[info.chain];
    if (!factory) {
      logger.warn({ chain: info.chain }, 'no escrow adapter for this chain; its escrows are not available');
      continue;
    }
    const chain = await factory(info, { dataDir, logger, signer, db: database.db });
    chains.set(info.chain, { ...chain, relayerTurn: createTurns(database, `escrow-relayer:${info.chain}`) });
  }
  return chains;
}

/**
 * Ethereum: the relayer, which pays gas for the platform's transactions (deploying escrows,
 * submitting approved payouts), has its key in DATA_DIR/keys/ethereum-relayer.key; on the devnet it
 * is given ETH at each start, on a real node the operator funds the address logged at start.
 */
async function createEthereumChain(
  info: ChainInfo,
  { dataDir, logger, signer }: Parameters<EscrowChainFactory>[1],
): ReturnType<EscrowChainFactory> {
  if (!isEthereumInfo(info)) throw new Error('the Ethereum chain needs its chain id and escrow factory');
  const relayerKey = await loadOrCreateKeyFile(join(dataDir, 'keys', 'ethereum-relayer.key'));
  const relayer = privateKeyToAccount(relayerKey).address;
  if (info.devnet) {
    // A devnet that does not answer only stops the escrow from working, not the server from starting.
    await fundOnDevnet(info.rpcUrl, relayer).catch((error: unknown) =>
      logger.warn({ err: error, chain: info.chain }, 'could not fund the relayer on the devnet'),
    );
  } else {
    logger.info(
      { chain: info.chain, relayer },
      'the relayer pays gas for escrow transactions: keep it funded',
    );
  }
  const adapter = createEthereumEscrowChain({
    rpcUrl: info.rpcUrl,
    chainId: info.chainId,
    escrowFactory: info.escrowFactory,
    feeAddress: info.feeAddress,
    // Ethereum's entries are built from EIP-55 contract addresses (ethereum-tokens.ts).
    tokens: info.tokens.map((token) => ({ symbol: token.symbol, address: token.address as Address | null })),
    confirmationPolicy: confirmationPolicyOf(info.confirmations),
    relayerKey,
    platformSigner: signer,
    ...(info.wsUrl ? { wsUrl: info.wsUrl } : {}),
  });
  return {
    info,
    adapter,
    ...(info.devnet
      ? {
          devFund: (to: string, tokenAddress: string | null, amount: bigint) =>
            fundFromDevnetWallet({
              rpcUrl: info.rpcUrl,
              token: (tokenAddress as Address | null) ?? null,
              to: to as Address,
              amount,
            }),
        }
      : {}),
  };
}

/**
 * Bitcoin: no relayer (each payout spends the leg's own deposits and pays its network fee from
 * them). The fee address is the platform's fee wallet, a key of its Bitcoin root, so a stuck payout
 * can be pushed by a child spending its fee output (CPFP); it is written into the chain's entry
 * here, where the platform's key is known.
 */
async function createBitcoinChain(
  info: ChainInfo,
  { signer, db }: Parameters<EscrowChainFactory>[1],
): ReturnType<EscrowChainFactory> {
  const settings = info.bitcoin;
  if (info.chain !== 'BTC' || !settings) throw new Error('the Bitcoin chain needs its network settings');
  const addressFormat = BITCOIN_ADDRESS_FORMATS[settings.network];
  const feeWallet = signer.bitcoinFeeWallet(addressFormat);
  info.feeAddress = feeWallet.address;
  const adapter = createBitcoinEscrowChain({
    rpcUrl: info.rpcUrl,
    ...(settings.rpcUser === undefined ? {} : { rpcUser: settings.rpcUser }),
    ...(settings.rpcPassword === undefined ? {} : { rpcPassword: settings.rpcPassword }),
    network: settings.network,
    feeAddress: feeWallet.address,
    confirmationPolicy: confirmationPolicyOf(info.confirmations),
    platformKey: signer.bitcoin,
    feeRates: {
      floor: BigInt(settings.feeRateSatPerVbyte.min),
      ceiling: BigInt(settings.feeRateSatPerVbyte.max),
    },
    feeWallet: { key: feeWallet.key, outpoints: () => feeWalletOutpoints(db) },
    ...(settings.maxPayoutInputs === undefined ? {} : { maxPayoutInputs: settings.maxPayoutInputs }),
  });
  const devWallet = settings.devWallet;
  return {
    info,
    adapter,
    ...(info.devnet && devWallet
      ? { devFund: (to: string, _tokenAddress: string | null, amount: bigint) => devWallet.fund(to, amount) }
      : {}),
  };
}

/** SOL the devnet's faucet gives the relayer at each start (it pays every fee and rent): 1,000 SOL. */
const devnetRelayerLamports = 1_000n * 1_000_000_000n;
/** The rent-exempt minimum of an account without data (a wallet): 890,880 lamports. */
const rentExemptSystemAccount = 890_880n;

/**
 * Solana: the relayer (a key of the platform's Solana seed) pays every escrow transaction's fee and
 * the rent of each leg's accounts, and gets the token account's rent back when the leg closes; on
 * the devnet the faucet funds it at each start, on a cluster the operator keeps the address logged
 * at start funded. The fee address is a wallet of the same seed unless SOL_FEE_ADDRESS names one;
 * it is written into the chain's entry here, where the platform's key is known.
 */
async function createSolanaChain(
  info: ChainInfo,
  { logger, signer }: Parameters<EscrowChainFactory>[1],
): ReturnType<EscrowChainFactory> {
  const settings = info.solana;
  if (info.chain !== 'SOL' || !settings) throw new Error('the Solana chain needs its cluster settings');
  const relayer = (await signer.solana.relayer()).address;
  info.feeAddress ||= (await signer.solana.legAccount('fee-wallet')).address;
  const faucet = settings.faucet;
  if (info.devnet && faucet) {
    // The relayer pays fees and rent; the fee address must exist before a SOL fee below the
    // rent-exempt minimum can be paid to it (Solana refuses to create an account under it).
    const funding: [string, bigint][] = [
      [relayer, devnetRelayerLamports],
      [info.feeAddress, rentExemptSystemAccount],
    ];
    for (const [address, lamports] of funding) {
      const balance = await solanaBalance(info.rpcUrl, address).catch(() => null);
      if (balance === null || balance >= lamports / 2n) continue;
      await faucet
        .fundSol(address, lamports)
        .catch((error: unknown) =>
          logger.warn({ err: error, chain: info.chain, address }, 'could not fund an account on the devnet'),
        );
    }
  } else {
    logger.info(
      { chain: info.chain, relayer },
      'the relayer pays fees and rent for Solana escrow transactions: keep it funded',
    );
  }
  const adapter = createSolanaEscrowChain({
    rpcUrl: info.rpcUrl,
    ...(info.wsUrl ? { wsUrl: info.wsUrl } : {}),
    network: settings.network,
    feeAddress: info.feeAddress,
    confirmationPolicy: confirmationPolicyOf(info.confirmations),
    mints: Object.fromEntries(
      info.tokens.flatMap((token) =>
        token.address === null ? [] : [[token.symbol, { address: token.address, decimals: token.decimals }]],
      ),
    ),
    platformKey: signer.solana,
  });
  return {
    info,
    adapter,
    ...(info.devnet && faucet
      ? {
          devFund: (to: string, tokenAddress: string | null, amount: bigint) =>
            tokenAddress === null ? faucet.fundSol(to, amount) : faucet.fundToken(to, tokenAddress, amount),
        }
      : {}),
  };
}

/** An account's lamports, read over the Solana JSON-RPC. */
async function solanaBalance(rpcUrl: string, address: string): Promise<bigint> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'getBalance',
      params: [address, { commitment: 'confirmed' }],
    }),
    signal: AbortSignal.timeout(5000),
  });
  const reply = (await response.json()) as { result?: { value: number }; error?: { message: string } };
  if (!reply.result) throw new Error(`getBalance: ${reply.error?.message ?? 'no result'}`);
  return BigInt(reply.result.value);
}

/** Fee outputs the fee wallet may still hold, newest first: the coins a CPFP child adds when a payout's own fee output is too small (the adapter keeps only those unspent and confirmed). */
const feeWalletCoinsTried = 50;

export async function feeWalletOutpoints(db: Db): Promise<{ txid: string; vout: number }[]> {
  const rows = await db
    .select({ txid: schema.escrowLedgerEntries.txRef, vout: schema.escrowLedgerEntries.position })
    .from(schema.escrowLedgerEntries)
    .where(
      and(
        eq(schema.escrowLedgerEntries.chain, 'BTC'),
        eq(schema.escrowLedgerEntries.kind, 'fee'),
        eq(schema.escrowLedgerEntries.status, 'confirmed'),
      ),
    )
    .orderBy(desc(schema.escrowLedgerEntries.createdAt))
    .limit(feeWalletCoinsTried);
  return rows;
}

function isEthereumInfo(info: ChainInfo): info is EthereumChainInfo {
  return (
    info.chain === 'ETH' &&
    info.chainId !== undefined &&
    info.escrowFactory !== undefined &&
    isAddress(info.feeAddress)
  );
}

async function fundOnDevnet(rpcUrl: string, address: Address): Promise<void> {
  const client = createTestClient({
    mode: 'anvil',
    chain: foundry,
    transport: http(rpcUrl, { retryCount: 0 }),
  });
  await client.setBalance({ address, value: parseEther('1000') });
}

/**
 * One at a time, in order of arrival within the process, each holding the lock `name` across
 * processes; a failure ends its own turn only.
 */
function createTurns(locks: DatabaseLocks, name: string): EscrowChain['relayerTurn'] {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const exclusive = () => locks.exclusively(name, work);
    const turn = last.then(exclusive, exclusive);
    last = turn.catch(() => {});
    return turn;
  };
}
