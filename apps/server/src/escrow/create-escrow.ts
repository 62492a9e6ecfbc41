import { schema } from '@covenant/db';
import { AppError, type Chain, meetingWindow, type TokenSymbol } from '@covenant/domain';
import { type LegTerms, legDepositor, legReceiver, legs } from '@covenant/escrow';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { appendDealEvent, type Transaction } from '../deals/append-deal-event.js';
import { checkCounterparty, checkDealTerms, loadTraderProfiles } from '../deals/deal-terms.js';
import { meetingOf, versionTermsOf } from '../deals/deal-view.js';
import { prepareTravelRuleExchange } from '../travel-rule/prepare-travel-rule-exchange.js';
import { recordTravelRuleExchange } from '../travel-rule/record-travel-rule-exchange.js';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { sendRelayerTransaction } from './relayer-transactions.js';

export interface CreatedEscrow {
  created: boolean;
  escrowId: string;
  legs: {
    leg: 'asset' | 'stable';
    chain: string;
    symbol: string;
    amount: string;
    depositAddress: string;
    deadline: Date;
    /** What proves the leg's custody from public data (Bitcoin); null on Ethereum. */
    custody: Record<string, unknown> | null;
  }[];
}

/**
 * Opens the escrow of a deal whose terms are agreed: per leg, the custody of the three keys (the
 * parties' registered signing addresses and the platform's) at a deposit address derived from the
 * accepted terms, deployed before it is shown to anyone, so every deposit lands in a contract that
 * logs it. A deployment is stored before it is sent and the relayer's turn ends once it is sent; the
 * call then waits a while for it to be mined (the engine's passes raise its fee if it waits), and
 * answers CONFLICT while it is not, so the parties ask again. A deal of $1,000 or more exchanges its Travel Rule information (IVMS 101) as it opens, and
 * does not open while a party's records lack a required element (ADR 024). Idempotent: a second
 * call (or a concurrent one) returns the same escrow.
 */
export async function createEscrow(
  deps: EscrowEngineDeps,
  userId: string,
  dealId: string,
): Promise<CreatedEscrow> {
  const [deal] = await deps.db
    .select()
    .from(schema.deals)
    .where(
      and(
        eq(schema.deals.id, dealId),
        or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)),
      ),
    );
  if (!deal) throw new AppError('NOT_FOUND', 'Deal not found');
  const existing = await findEscrow(deps, dealId);
  if (existing) return existing;
  if (deal.status !== 'terms_agreed' || !deal.termsAgreedAt) {
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      'The escrow opens once both parties have agreed the terms',
      {
        status: deal.status,
      },
    );
  }

  // Both parties must still be allowed the trade when the escrow opens, as at acceptance: KYC
  // withdrawn or a tier lowered since the terms were agreed stops it before anything is deployed.
  const counterpartyId = userId === deal.buyerId ? deal.sellerId : deal.buyerId;
  const profiles = await loadTraderProfiles(deps.db, [userId, counterpartyId]);
  const agreed = versionTermsOf(deal);
  const { stableAmount } = checkDealTerms(profiles.get(userId), counterpartyId, agreed);
  checkCounterparty(profiles.get(counterpartyId), agreed, stableAmount);

  const legSpecs = {
    asset: { chain: deal.assetChain, symbol: deal.assetSymbol, amount: BigInt(deal.assetAmount) },
    stable: { chain: deal.stableChain, symbol: deal.stableSymbol, amount: BigInt(deal.stableAmount) },
  };
  for (const leg of legs) {
    const spec = legSpecs[leg];
    const chain = deps.chains.get(spec.chain);
    if (!chain) throw new AppError('NOT_IMPLEMENTED', `Escrow on ${spec.chain} is not available yet`);
    if (!chain.info.tokens.some((token) => token.symbol === spec.symbol)) {
      throw new AppError('NOT_IMPLEMENTED', `${spec.symbol} is not offered on ${spec.chain} here`);
    }
  }

  const chainsUsed = [...new Set(legs.map((leg) => legSpecs[leg].chain))];
  const [wallets, addresses] = await Promise.all([
    deps.db
      .select()
      .from(schema.walletAddresses)
      .where(
        and(
          inArray(schema.walletAddresses.userId, [deal.buyerId, deal.sellerId]),
          inArray(schema.walletAddresses.chain, chainsUsed),
        ),
      ),
    deps.db.select().from(schema.dealAddresses).where(eq(schema.dealAddresses.dealId, dealId)),
  ]);
  const signerOf = (party: 'buyer' | 'seller', chain: string) =>
    wallets.find(
      (wallet) =>
        wallet.userId === (party === 'buyer' ? deal.buyerId : deal.sellerId) && wallet.chain === chain,
    )?.address;
  const missing = chainsUsed.flatMap((chain) =>
    (['buyer', 'seller'] as const)
      .filter((party) => !signerOf(party, chain))
      .map((party) => ({ party, chain })),
  );
  if (missing.length > 0) {
    throw new AppError('CONFLICT', 'Both parties need an escrow key first', { missing });
  }
  const addressOf = (party: 'buyer' | 'seller') => addresses.find((row) => row.party === party);
  if (!addressOf('buyer') || !addressOf('seller')) {
    throw new AppError('ADDRESSES_REQUIRED', 'Both parties must set their addresses');
  }
  // Checked before any leg is deployed: a deal the Travel Rule stops costs nothing on-chain.
  const travelRule = await prepareTravelRuleExchange(deps, deal, addresses);
  const deadline = new Date(deal.termsAgreedAt.getTime() + deal.fundingDeadlineHours * 3_600_000);
  // A funded deal has the settlement window to settle; one with a meeting has it after the meeting's
  // check-in closes, so nobody can refund the escrow on-chain before the parties could meet.
  const meeting = meetingOf(deal);
  const settlesFrom = meeting
    ? Math.max(deadline.getTime(), meetingWindow(meeting).closes.getTime())
    : deadline.getTime();
  const refundAfter = new Date(settlesFrom + deps.settlementWindowHours * 3_600_000);

  const planned: {
    terms: LegTerms;
    depositAddress: string;
    confirmations: number;
    platformKeyIndex: number;
    custody: Record<string, unknown> | null;
  }[] = [];
  for (const leg of legs) {
    const spec = legSpecs[leg];
    const chain = deps.chains.get(spec.chain)!;
    const depositor = addressOf(legDepositor[leg]);
    const receiver = addressOf(legReceiver[leg]);
    if (!depositor || !receiver)
      throw new AppError('ADDRESSES_REQUIRED', 'Both parties must set their addresses');
    const platformKeyIndex = await allocatePlatformKeyIndex(deps);
    const signers = {
      buyer: signerOf('buyer', spec.chain)!,
      seller: signerOf('seller', spec.chain)!,
      platform: await chain.adapter.platformSigner(platformKeyIndex),
    };
    const distinct = new Set(Object.values(signers).map((address) => address.toLowerCase()));
    if (distinct.size !== 3) {
      throw new AppError(
        'CONFLICT',
        'The buyer, the seller and the platform must sign with three different addresses',
      );
    }
    const terms: LegTerms = {
      dealId,
      leg,
      chain: spec.chain as Chain,
      symbol: spec.symbol as TokenSymbol,
      tokenAddress: chain.info.tokens.find((token) => token.symbol === spec.symbol)?.address ?? null,
      requiredAmount: spec.amount,
      depositorRefundAddress: depositor.refundAddress,
      receiverPayoutAddress: receiver.payoutAddress,
      deadline,
      // Only a chain that can refund a leg alone after a deadline (Ethereum's escrow contract) has
      // one; a Bitcoin leg's script has no timelock, so its refund always waits for an approval.
      refundAfter: chain.adapter.signRefundAfterDeadline ? refundAfter : null,
      signers,
    };
    // The watcher starts at the block before the escrow exists: nothing can have paid it earlier.
    const height = await chain.adapter.currentHeight();
    await deps.db
      .insert(schema.chainScanCursors)
      .values({
        chain: spec.chain,
        scannedHeight: height,
        scannedBlockRef: await chain.adapter.blockRefAt(height),
      })
      .onConflictDoNothing();
    const { depositAddress, custody } = await openLeg(deps, chain, terms);
    planned.push({
      terms,
      depositAddress,
      confirmations: chain.adapter.confirmationPolicy.confirmations,
      platformKeyIndex,
      custody,
    });
  }

  await waitForDeployments(deps, planned);

  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(schema.deals).where(eq(schema.deals.id, dealId)).for('update');
    if (locked?.status !== 'terms_agreed') return;
    // The legs were built from the agreement read at the start; while they deployed, the parties may
    // have agreed other terms (or set other addresses or keys, then agreed again). An escrow of the
    // old agreement would hold the wrong amounts for the deal its parties now see.
    if (!sameAgreement(deal, locked) || !(await samePartiesKeys(tx, deal, planned))) {
      throw new AppError('CONFLICT', 'The terms changed while the escrow was being opened; open it again', {
        accepted_terms_version: locked.acceptedTermsVersion,
      });
    }
    const [escrow] = await tx
      .insert(schema.escrows)
      .values({ dealId, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ id: schema.escrows.id });
    if (!escrow) return;
    await tx.insert(schema.escrowLegs).values(
      planned.map(({ terms, depositAddress, confirmations, platformKeyIndex, custody }) => ({
        escrowId: escrow.id,
        leg: terms.leg,
        chain: terms.chain,
        symbol: terms.symbol,
        tokenAddress: terms.tokenAddress,
        requiredAmount: terms.requiredAmount.toString(),
        depositAddress,
        depositorRefundAddress: terms.depositorRefundAddress,
        receiverPayoutAddress: terms.receiverPayoutAddress,
        buyerSigner: terms.signers.buyer,
        sellerSigner: terms.signers.seller,
        platformSigner: terms.signers.platform,
        platformKeyIndex,
        custody,
        requiredConfirmations: confirmations,
        deadline: terms.deadline,
        refundAfter: terms.refundAfter,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await appendDealEvent(tx, {
      dealId,
      actorId: userId,
      action: 'escrow_opened',
      payload: {
        escrow_id: escrow.id,
        funding_deadline: deadline.toISOString(),
        legs: planned.map(({ terms, depositAddress }) => ({
          leg: terms.leg,
          chain: terms.chain,
          symbol: terms.symbol,
          amount: terms.requiredAmount.toString(),
          deposit_address: depositAddress,
        })),
      },
      createdAt: now,
    });
    if (travelRule) await recordTravelRuleExchange(tx, deps.fileStore.masterKey, travelRule, userId, now);
  });
  const created = await findEscrow(deps, dealId);
  if (!created) {
    throw new AppError('INVALID_STATE_TRANSITION', 'The deal changed while its escrow was being opened');
  }
  return { ...created, created: true };
}

/** Whether two reads of a deal hold the same agreement: the same accepted version, agreed at the same moment. */
function sameAgreement(
  first: typeof schema.deals.$inferSelect,
  second: typeof schema.deals.$inferSelect,
): boolean {
  return (
    first.acceptedTermsVersion === second.acceptedTermsVersion &&
    first.termsHash === second.termsHash &&
    first.termsAgreedAt?.getTime() === second.termsAgreedAt?.getTime()
  );
}

/**
 * Whether each planned leg still names the parties' addresses and escrow keys as they stand now
 * (read in the opening transaction, the deal locked).
 */
async function samePartiesKeys(
  tx: Transaction,
  deal: typeof schema.deals.$inferSelect,
  planned: readonly { terms: LegTerms }[],
): Promise<boolean> {
  // One after the other: on PGlite a transaction runs one statement at a time.
  const addresses = await tx
    .select()
    .from(schema.dealAddresses)
    .where(eq(schema.dealAddresses.dealId, deal.id));
  const wallets = await tx
    .select()
    .from(schema.walletAddresses)
    .where(inArray(schema.walletAddresses.userId, [deal.buyerId, deal.sellerId]));
  const userOf = { buyer: deal.buyerId, seller: deal.sellerId };
  return planned.every(({ terms }) => {
    const depositor = addresses.find((row) => row.party === legDepositor[terms.leg]);
    const receiver = addresses.find((row) => row.party === legReceiver[terms.leg]);
    const signs = (party: 'buyer' | 'seller') =>
      wallets.some(
        (wallet) =>
          wallet.userId === userOf[party] &&
          wallet.chain === terms.chain &&
          wallet.address === terms.signers[party],
      );
    return (
      depositor?.refundAddress === terms.depositorRefundAddress &&
      receiver?.payoutAddress === terms.receiverPayoutAddress &&
      signs('buyer') &&
      signs('seller')
    );
  });
}

/**
 * Makes the leg's deposit address ready. Where the chain deploys an escrow (Ethereum), the
 * deployment is signed, stored and sent in the relayer's turn, and followed by the engine's passes
 * (`followRelayerTransactions`): a retried opening finds it and signs nothing. Elsewhere the
 * adapter's `openLeg` does it all (Bitcoin sends nothing; Solana waits for its transaction).
 */
async function openLeg(
  deps: EscrowEngineDeps,
  chain: EscrowChain,
  terms: LegTerms,
): Promise<{ depositAddress: string; custody: Record<string, unknown> | null }> {
  const { signDeployment, isDeployed } = chain.adapter;
  if (!signDeployment || !isDeployed) return chain.relayerTurn(() => chain.adapter.openLeg(terms));
  const depositAddress = await chain.adapter.depositAddress(terms);
  await sendRelayerTransaction(
    deps,
    chain,
    { kind: 'deployment', subject: depositAddress, escrowId: null, leg: terms.leg, depositAddress },
    async () => (await signDeployment.call(chain.adapter, terms)).transaction,
  );
  return { depositAddress, custody: null };
}

/** How often opening an escrow looks whether its deployments are mined. */
const deploymentPollMs = 250;

/**
 * Waits, holding no turn, until every leg's escrow that needs one is deployed, at most
 * `deploymentWaitSeconds`; then answers CONFLICT with the legs still on their way.
 */
async function waitForDeployments(
  deps: EscrowEngineDeps,
  planned: readonly { terms: LegTerms; depositAddress: string }[],
): Promise<void> {
  const until = Date.now() + deps.deploymentWaitSeconds * 1000;
  for (;;) {
    const waiting: { leg: string; chain: string; deposit_address: string }[] = [];
    for (const { terms, depositAddress } of planned) {
      const adapter = deps.chains.get(terms.chain)?.adapter;
      if (!adapter?.isDeployed) continue;
      if (!(await adapter.isDeployed(depositAddress))) {
        waiting.push({ leg: terms.leg, chain: terms.chain, deposit_address: depositAddress });
      }
    }
    if (waiting.length === 0) return;
    if (Date.now() >= until) {
      throw new AppError('CONFLICT', 'The escrow is being deployed on-chain; open it again in a minute', {
        deploying: waiting,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, deploymentPollMs));
  }
}

/**
 * The platform's key index of a new leg, from a sequence: never the same for two legs, even when
 * escrows open concurrently (an index taken by an attempt that did not finish is simply skipped).
 */
async function allocatePlatformKeyIndex(deps: EscrowEngineDeps): Promise<number> {
  const result = await deps.db.execute<{ index: number }>(
    sql`select nextval('escrow_platform_key_index_seq')::integer as index`,
  );
  const index = result.rows[0]?.index;
  if (typeof index !== 'number') throw new Error('no platform key index allocated');
  return index;
}

async function findEscrow(deps: EscrowEngineDeps, dealId: string): Promise<CreatedEscrow | null> {
  const [escrow] = await deps.db.select().from(schema.escrows).where(eq(schema.escrows.dealId, dealId));
  if (!escrow) return null;
  const rows = await deps.db
    .select()
    .from(schema.escrowLegs)
    .where(eq(schema.escrowLegs.escrowId, escrow.id));
  return {
    created: false,
    escrowId: escrow.id,
    legs: rows
      .sort((a, b) => a.leg.localeCompare(b.leg))
      .map((row) => ({
        leg: row.leg,
        chain: row.chain,
        symbol: row.symbol,
        amount: row.requiredAmount,
        depositAddress: row.depositAddress,
        deadline: row.deadline,
        custody: row.custody,
      })),
  };
}
