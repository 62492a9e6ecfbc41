import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { AppError } from '@covenant/domain';
import type { EscrowLeg, Leg, MediatorInstruction, SettlementPlan } from '@covenant/escrow';
import { and, eq, ne } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBitcoinDealEscrow, insertEscrowLegs } from '../testing/insert-escrow-rows.js';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { preparePayouts } from './prepare-payouts.js';

// The deal of insertBitcoinDealEscrow: 0.12345678 BTC (12 345 678 sat, the asset leg, on Bitcoin)
// against 60 000 USDT (60 000 000 000 base units, the stable leg, on Ethereum).
const amounts: Record<Leg, bigint> = { asset: 12_345_678n, stable: 60_000_000_000n };

let database: Database;
/** The legs whose payout the fake adapters refuse to build, as a chain's adapter may (a Bitcoin output below dust). */
const unbuildable = new Set<Leg>();

/** An adapter that builds any payout it is asked for, except on the legs in `unbuildable`. */
function fakeChain(chain: string): EscrowChain {
  return {
    info: { feeAddress: `fee-${chain}` },
    adapter: {
      buildPayout: async (leg: EscrowLeg, plan: SettlementPlan) => {
        if (unbuildable.has(leg.leg)) {
          throw new AppError('INSUFFICIENT_BALANCE', 'The payout would leave only dust', { leg: leg.leg });
        }
        return { payoutRef: `${chain}-${leg.leg}-${plan.outcome}`, signingPayload: { plan: plan.outcome } };
      },
    },
    relayerTurn: <T>(work: () => Promise<T>) => work(),
  } as unknown as EscrowChain;
}

function deps(): EscrowEngineDeps {
  return {
    db: database.db,
    now: () => new Date(),
    logger: pino({ level: 'silent' }),
    chains: new Map([
      ['BTC', fakeChain('BTC')],
      ['ETH', fakeChain('ETH')],
    ]),
  } as unknown as EscrowEngineDeps;
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/**
 * A deal the mediator decided (`decision`) with its escrow holding `received` per leg in confirmed
 * deposits, and the decision's instruction queued for the engine as `decideDispute` writes it.
 */
async function decidedEscrow(decision: MediatorInstruction['decision'], received: Record<Leg, bigint>) {
  const escrowId = await insertBitcoinDealEscrow(database.db);
  const [escrow] = await database.db.select().from(schema.escrows).where(eq(schema.escrows.id, escrowId));
  const dealId = escrow!.dealId;
  await database.db
    .update(schema.deals)
    .set({ status: decision === 'refund' ? 'cancelled' : 'completed' })
    .where(eq(schema.deals.id, dealId));
  await insertEscrowLegs(database.db, escrowId, {
    asset: {
      chain: 'BTC',
      symbol: 'BTC',
      required: amounts.asset.toString(),
      received: received.asset.toString(),
    },
    stable: {
      chain: 'ETH',
      symbol: 'USDT',
      required: amounts.stable.toString(),
      received: received.stable.toString(),
    },
  });
  const share = (leg: Leg, party: 'buyer' | 'seller') => {
    const receiver = leg === 'asset' ? 'buyer' : 'seller';
    if (decision === 'release') return party === receiver ? amounts[leg].toString() : '0';
    if (decision === 'refund') return party === receiver ? '0' : amounts[leg].toString();
    return (amounts[leg] / 2n).toString();
  };
  const legPayload = (leg: Leg) => ({
    chain: leg === 'asset' ? 'BTC' : 'ETH',
    symbol: leg === 'asset' ? 'BTC' : 'USDT',
    amount: amounts[leg].toString(),
    deposited_by: leg === 'asset' ? 'seller' : 'buyer',
    to_buyer: share(leg, 'buyer'),
    to_seller: share(leg, 'seller'),
    buyer_address: null,
    seller_address: null,
  });
  const [instruction] = await database.db
    .insert(schema.escrowInstructions)
    .values({
      dealId,
      kind: 'mediator_decision',
      payload: {
        dispute_id: null,
        decision,
        buyer_id: null,
        seller_id: null,
        legs: { asset: legPayload('asset'), stable: legPayload('stable') },
      },
    })
    .returning();
  return { escrowId, instructionId: instruction!.id };
}

async function livePayoutsOf(escrowId: string) {
  return database.db
    .select()
    .from(schema.escrowPayouts)
    .where(and(eq(schema.escrowPayouts.escrowId, escrowId), ne(schema.escrowPayouts.status, 'superseded')));
}

async function instructionOf(instructionId: string) {
  const [row] = await database.db
    .select()
    .from(schema.escrowInstructions)
    .where(eq(schema.escrowInstructions.id, instructionId));
  return row!;
}

async function alertsAbout(instructionId: string) {
  return database.db.select().from(schema.staffAlerts).where(eq(schema.staffAlerts.subject, instructionId));
}

describe('a mediator decision carried out by the escrow engine', () => {
  it('writes no payout at all when its second leg cannot be built, so the first is never live', async () => {
    const { escrowId, instructionId } = await decidedEscrow('release', amounts);
    unbuildable.add('stable');
    try {
      await preparePayouts(deps());
    } finally {
      unbuildable.clear();
    }
    // The asset leg (first) was built; the stable leg (second) refused: nothing of the decision is live.
    expect(await livePayoutsOf(escrowId)).toEqual([]);
    expect((await instructionOf(instructionId)).status).toBe('failed');
    expect(await alertsAbout(instructionId)).toEqual([
      expect.objectContaining({
        kind: 'instruction_not_payable',
        details: expect.objectContaining({ error: 'INSUFFICIENT_BALANCE', leg: 'stable' }),
      }),
    ]);
  });

  it.each([
    ['holds nothing', 0n],
    ['holds part of its amount', 59_999_999_999n],
  ])(
    'fails a release queued while the stable leg %s, leaving no payout of the asset to the buyer',
    async (_, stable) => {
      const { escrowId, instructionId } = await decidedEscrow('release', { asset: amounts.asset, stable });
      await preparePayouts(deps());
      expect(await livePayoutsOf(escrowId)).toEqual([]);
      expect((await instructionOf(instructionId)).status).toBe('failed');
      const [alert] = await alertsAbout(instructionId);
      expect(alert).toMatchObject({
        kind: 'instruction_not_payable',
        details: {
          error: 'INSUFFICIENT_BALANCE',
          short_legs: [{ leg: 'stable', required: '60000000000', received: stable.toString() }],
        },
      });
    },
  );

  it('fails a split queued while the asset leg is short, writing nothing', async () => {
    const { escrowId, instructionId } = await decidedEscrow('split', { asset: 1n, stable: amounts.stable });
    await preparePayouts(deps());
    expect(await livePayoutsOf(escrowId)).toEqual([]);
    expect((await instructionOf(instructionId)).status).toBe('failed');
  });

  it('refunds whatever each leg of a partly funded escrow holds', async () => {
    const { escrowId, instructionId } = await decidedEscrow('refund', {
      asset: amounts.asset,
      stable: 1_000n,
    });
    await preparePayouts(deps());
    const payouts = await livePayoutsOf(escrowId);
    expect(payouts.map((payout) => [payout.leg, payout.kind, payout.source, payout.status]).sort()).toEqual([
      ['asset', 'refund', 'mediator', 'collecting'],
      ['stable', 'refund', 'mediator', 'collecting'],
    ]);
    expect((await instructionOf(instructionId)).status).toBe('executing');
    expect(await alertsAbout(instructionId)).toEqual([]);
  });

  it('writes both legs of a release on a fully funded escrow', async () => {
    const { escrowId, instructionId } = await decidedEscrow('release', amounts);
    await preparePayouts(deps());
    const payouts = await livePayoutsOf(escrowId);
    expect(payouts.map((payout) => [payout.leg, payout.kind]).sort()).toEqual([
      ['asset', 'release'],
      ['stable', 'release'],
    ]);
    expect((await instructionOf(instructionId)).status).toBe('executing');
    const [escrow] = await database.db.select().from(schema.escrows).where(eq(schema.escrows.id, escrowId));
    expect(escrow!.status).toBe('settling');
  });
});
