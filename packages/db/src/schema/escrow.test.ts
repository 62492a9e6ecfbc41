import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../database.js';
import { createTestDatabase } from '../testing.js';
import { users } from './auth.js';
import { deals } from './deals.js';
import {
  escrowLedgerEntries,
  escrowLegs,
  escrowPayouts,
  escrowRelayerTransactions,
  escrows,
} from './escrow.js';

// 1 000 000 ETH in wei (10^24) is beyond a 64-bit integer; the largest uint256 is 78 digits.
const maxDealWei = '1000000000000000000000000';
const maxUint256 = (2n ** 256n - 1n).toString();

describe('the escrow tables', () => {
  let database: Database;
  let escrowId: string;
  let dealId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const [buyer, seller] = await database.db
      .insert(users)
      .values([{ email: 'buyer@example.com' }, { email: 'seller@example.com' }])
      .returning({ id: users.id });
    const [deal] = await database.db
      .insert(deals)
      .values({
        buyerId: buyer!.id,
        sellerId: seller!.id,
        assetChain: 'ETH',
        assetSymbol: 'ETH',
        assetAmount: maxDealWei,
        stableChain: 'ETH',
        stableSymbol: 'USDT',
        stableAmount: '60000000000',
      })
      .returning({ id: deals.id });
    dealId = deal!.id;
    const [escrow] = await database.db.insert(escrows).values({ dealId }).returning({ id: escrows.id });
    escrowId = escrow!.id;
    await database.db
      .insert(escrowLegs)
      .values([leg('asset', '0xDepositA', maxDealWei), leg('stable', '0xDepositS', '60000000000')]);
  });
  afterAll(async () => {
    await database?.close();
  });

  function leg(name: 'asset' | 'stable', depositAddress: string, requiredAmount: string) {
    return {
      escrowId,
      leg: name,
      chain: 'ETH',
      symbol: name === 'asset' ? 'ETH' : 'USDT',
      tokenAddress: name === 'asset' ? null : '0xUsdt',
      requiredAmount,
      depositAddress,
      depositorRefundAddress: '0xRefund',
      receiverPayoutAddress: '0xPayout',
      buyerSigner: '0xBuyer',
      sellerSigner: '0xSeller',
      platformSigner: '0xPlatform',
      requiredConfirmations: 12,
      deadline: new Date('2026-11-23T00:00:00Z'),
    };
  }

  it('keeps one escrow per deal', async () => {
    await expect(database.db.insert(escrows).values({ dealId })).rejects.toMatchObject(
      violation('23505', 'escrows_deal_idx'),
    );
  });

  it('starts legs awaiting a deposit and keeps amounts beyond 64 bits exactly', async () => {
    const [asset] = await database.db
      .select()
      .from(escrowLegs)
      .where(eq(escrowLegs.depositAddress, '0xDepositA'));
    expect(asset).toMatchObject({
      state: 'awaiting_deposit',
      requiredAmount: maxDealWei,
      tokenAddress: null,
    });
    expect(BigInt(asset!.requiredAmount)).toBe(10n ** 24n);
  });

  it('refuses a second leg at the same deposit address on the same chain', async () => {
    const [other] = await database.db
      .insert(escrows)
      .values({ dealId: await otherDeal() })
      .returning({ id: escrows.id });
    await expect(
      database.db.insert(escrowLegs).values({ ...leg('asset', '0xDepositA', '1'), escrowId: other!.id }),
    ).rejects.toMatchObject(violation('23505', 'escrow_legs_chain_deposit_address_idx'));
  });

  it('records a movement once: the same transaction, position and kind cannot be entered twice', async () => {
    const deposit = {
      escrowId,
      leg: 'asset' as const,
      chain: 'ETH',
      kind: 'deposit' as const,
      amount: maxUint256,
      txRef: '0xabc',
      position: 3,
      blockHeight: 2n ** 40n,
    };
    const [row] = await database.db.insert(escrowLedgerEntries).values(deposit).returning();
    expect(row).toMatchObject({
      status: 'pending',
      confirmations: 0,
      amount: maxUint256,
      blockHeight: 2n ** 40n,
    });
    await expect(database.db.insert(escrowLedgerEntries).values(deposit)).rejects.toMatchObject(
      violation('23505', 'escrow_ledger_entries_movement_idx'),
    );
    // the fee paid in the same transaction at the same position is another movement
    await database.db.insert(escrowLedgerEntries).values({ ...deposit, kind: 'fee', amount: '1' });
  });

  it('refuses a ledger entry for a leg that does not exist', async () => {
    const [bare] = await database.db
      .insert(escrows)
      .values({ dealId: await otherDeal() })
      .returning({ id: escrows.id });
    await expect(
      database.db.insert(escrowLedgerEntries).values({
        escrowId: bare!.id,
        leg: 'asset',
        chain: 'ETH',
        kind: 'deposit',
        amount: '1',
        txRef: '0xdef',
        position: 0,
      }),
    ).rejects.toMatchObject(violation('23503', 'escrow_ledger_entries_leg_fk'));
  });

  it('gives every leg its own platform key index from the sequence', async () => {
    const rows = await database.db.select({ index: escrowLegs.platformKeyIndex }).from(escrowLegs);
    const indexes = rows.map((row) => row.index);
    expect(indexes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(indexes).size).toBe(indexes.length);
    expect(indexes.every((index) => Number.isInteger(index) && index >= 0)).toBe(true);
  });

  it('keeps one live payout per leg, and one late-deposit return at a time beside it', async () => {
    const payout = (
      source: 'settlement' | 'late_deposit',
      status: 'collecting' | 'confirmed' = 'collecting',
    ) => ({
      escrowId,
      leg: 'stable' as const,
      chain: 'BTC',
      kind: 'refund' as const,
      source,
      payoutRef: `ref-${source}-${Math.random()}`,
      signingPayload: { format: 'psbt', data: 'cHNidP8=' },
      plan: { transfers: [] },
      status,
    });
    await database.db.insert(escrowPayouts).values(payout('settlement', 'confirmed'));
    await expect(database.db.insert(escrowPayouts).values(payout('settlement'))).rejects.toMatchObject(
      violation('23505', 'escrow_payouts_live_leg_idx'),
    );
    const [late] = await database.db.insert(escrowPayouts).values(payout('late_deposit')).returning();
    expect(late).toMatchObject({ feeBumpTransactions: [], replacedTransactions: [] });
    await expect(database.db.insert(escrowPayouts).values(payout('late_deposit'))).rejects.toMatchObject(
      violation('23505', 'escrow_payouts_live_late_deposit_idx'),
    );
    // Once the first return is confirmed, a later deposit gets its own.
    await database.db
      .update(escrowPayouts)
      .set({ status: 'confirmed' })
      .where(eq(escrowPayouts.id, late!.id));
    await database.db.insert(escrowPayouts).values(payout('late_deposit'));
  });

  it('keeps one live relayer transaction per kind and subject, and another once it is done', async () => {
    const sweep = (txRef: string) => ({
      chain: 'ETH',
      kind: 'sweep' as const,
      subject: `${escrowId}:asset`,
      escrowId,
      leg: 'asset' as const,
      depositAddress: '0xDepositA',
      rawTransaction: `0x${txRef}`,
      txRef,
      submittedAt: new Date(),
    });
    const [first] = await database.db.insert(escrowRelayerTransactions).values(sweep('0x01')).returning();
    expect(first).toMatchObject({ status: 'submitting', replacedTransactions: [], feeBumpTransactions: [] });
    await expect(database.db.insert(escrowRelayerTransactions).values(sweep('0x02'))).rejects.toMatchObject(
      violation('23505', 'escrow_relayer_transactions_live_idx'),
    );
    // A deployment of the same address is another kind of work.
    await database.db
      .insert(escrowRelayerTransactions)
      .values({ ...sweep('0x03'), kind: 'deployment', subject: '0xDepositA', escrowId: null });
    await database.db
      .update(escrowRelayerTransactions)
      .set({ status: 'confirmed' })
      .where(eq(escrowRelayerTransactions.id, first!.id));
    await database.db.insert(escrowRelayerTransactions).values(sweep('0x04'));
  });

  async function otherDeal(): Promise<string> {
    const [deal] = await database.db.select().from(deals).where(eq(deals.id, dealId));
    const [copy] = await database.db
      .insert(deals)
      .values({ ...deal!, id: undefined })
      .returning({ id: deals.id });
    return copy!.id;
  }
});

/** A database error as drizzle reports it: PostgreSQL's code and the constraint it names, in `cause`. */
function violation(code: '23503' | '23505', constraint: string) {
  return { cause: expect.objectContaining({ code, constraint }) };
}
