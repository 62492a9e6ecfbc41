import { type Db, schema } from '@covenant/db';
import {
  AppError,
  type BitcoinNetwork,
  type Chain,
  validateBitcoinPublicKey,
  validateChainAddress,
  validateSolanaSigner,
} from '@covenant/domain';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { Transaction } from '../deals/append-deal-event.js';

export interface ConnectedWallet {
  chain: Chain;
  /**
   * The chain's signer: an EIP-55 address on Ethereum, a compressed public key (lower-case hex) on
   * Bitcoin, an ed25519 public key in base58 (an address on the curve) on Solana.
   */
  address: string;
  connectedAt: Date;
  /** False when the caller registered the address it already had. */
  changed: boolean;
}

/** Leg states in which a deposit may sit in the escrow, so its signers must stay as they are. */
const lockedLegStates = ['partially_funded', 'funded', 'releasing', 'refunding'] as const;
/**
 * Deal states in which a leg still awaiting its deposit may get one: its custody was fixed when the
 * escrow opened, so a signer replaced then could no longer sign for what arrives.
 */
const liveDealStates = ['terms_agreed', 'escrow_funded', 'disputed'] as const;

/**
 * Registers the signer the caller signs escrow transactions with on `chain` (one per chain): an
 * address, or on Bitcoin a compressed public key (see `readWalletSigner`). Ethereum addresses are
 * stored in EIP-55 form, Bitcoin public keys in lower case. The address cannot change while an escrow leg on
 * that chain that may hold a deposit names the current one as the caller's signer: the escrow's
 * custody was derived from it. The caller's row is locked, so two concurrent changes are decided
 * one after the other.
 */
export async function connectWallet(
  /** `db` may be a transaction: the change then runs in a savepoint of it. */
  deps: { db: Db | Transaction; now: () => Date; bitcoinNetwork: BitcoinNetwork },
  userId: string,
  chain: Chain,
  address: string,
): Promise<ConnectedWallet> {
  const stored = storedSigner(chain, address, deps.bitcoinNetwork);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(schema.walletAddresses)
      .values({ userId, chain, address: stored, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ updatedAt: schema.walletAddresses.updatedAt });
    if (inserted) return { chain, address: stored, connectedAt: inserted.updatedAt, changed: true };

    const [current] = await tx
      .select({ address: schema.walletAddresses.address, updatedAt: schema.walletAddresses.updatedAt })
      .from(schema.walletAddresses)
      .where(and(eq(schema.walletAddresses.userId, userId), eq(schema.walletAddresses.chain, chain)))
      .for('update');
    if (!current) throw new Error('wallet address row vanished inside its transaction');
    if (current.address === stored) {
      return { chain, address: stored, connectedAt: current.updatedAt, changed: false };
    }
    if (await signsOpenEscrow(tx, userId, chain, current.address)) {
      throw new AppError(
        'CONFLICT',
        'Your address on this chain cannot change while an escrow you sign for is open',
      );
    }
    await tx
      .update(schema.walletAddresses)
      .set({ address: stored, updatedAt: now })
      .where(and(eq(schema.walletAddresses.userId, userId), eq(schema.walletAddresses.chain, chain)));
    return { chain, address: stored, connectedAt: now, changed: true };
  });
}

/** The signer as it is stored in `wallet_addresses.address`, or a 4xx saying what is wrong with it. */
function storedSigner(chain: Chain, signer: string, bitcoinNetwork: BitcoinNetwork): string {
  if (chain === 'BTC') {
    const check = validateBitcoinPublicKey(signer);
    if (!check.ok) {
      throw new AppError('INVALID_PUBLIC_KEY', `Not a valid Bitcoin public key: ${check.reason}`, {
        in: 'body',
        issues: [{ path: '/public_key', message: check.reason }],
      });
    }
    return check.publicKey;
  }
  const check = validateChainAddress(chain, signer, { bitcoinNetwork });
  if (!check.ok) {
    throw new AppError('VALIDATION_FAILED', `Not a valid ${chain} address: ${check.reason}`, {
      address: check.reason,
    });
  }
  if (chain === 'SOL') {
    // Well-formed, but the escrow's multisig needs a key someone holds.
    const signerCheck = validateSolanaSigner(signer);
    if (!signerCheck.ok) {
      throw new AppError('INVALID_PUBLIC_KEY', `Not a valid Solana signer: ${signerCheck.reason}`, {
        in: 'body',
        issues: [{ path: '/address', message: signerCheck.reason }],
      });
    }
  }
  return chain === 'ETH' ? getAddress(signer) : signer;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Whether `address` is the user's signer (as buyer or seller) of a leg on `chain` that may hold funds. */
export async function signsOpenEscrow(
  tx: Tx,
  userId: string,
  chain: Chain,
  address: string,
): Promise<boolean> {
  const legs = schema.escrowLegs;
  // Ethereum addresses compare without their checksum case; other chains' signers are case-exact
  // (Bitcoin public keys are stored in lower case).
  const same = (column: typeof legs.buyerSigner | typeof legs.sellerSigner): SQL =>
    chain === 'ETH' ? sql`lower(${column}) = lower(${address})` : eq(column, address);
  const [found] = await tx
    .select({ escrowId: legs.escrowId })
    .from(legs)
    .innerJoin(schema.escrows, eq(schema.escrows.id, legs.escrowId))
    .innerJoin(schema.deals, eq(schema.deals.id, schema.escrows.dealId))
    .where(
      and(
        eq(legs.chain, chain),
        or(
          inArray(legs.state, [...lockedLegStates]),
          and(eq(legs.state, 'awaiting_deposit'), inArray(schema.deals.status, [...liveDealStates])),
        ),
        or(
          and(same(legs.buyerSigner), eq(schema.deals.buyerId, userId)),
          and(same(legs.sellerSigner), eq(schema.deals.sellerId, userId)),
        ),
      ),
    )
    .limit(1);
  return found !== undefined;
}
