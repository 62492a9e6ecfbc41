import { schema } from '@covenant/db';
import type { Meeting } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import {
  dealStatus,
  type EscrowDevnet,
  type EscrowParty,
  startEscrowDevnet,
} from '../testing/start-escrow-devnet.js';
import { eraseMeetingPositions } from './erase-meeting-positions.js';

// A WETH-against-USDC deal whose terms require a meeting in Zurich: funded, it settles only once
// both parties checked in at the meeting with each other's rotating code, or both waived it.
let net: EscrowDevnet;
const steps = escrowSteps(() => net);
const assetAmount = 1_000_000_000_000_000_000n;
const stableAmount = 3_000_000_000n;

const meetingToday = (): Meeting => ({
  location: 'Zurich, Baur au Lac',
  latitude: '47.3667',
  longitude: '8.5392',
  starts_on: net.clock.now.toISOString().slice(0, 10),
  duration: '1-2',
  travel_paid_by: 'split',
});
// About 120 m from the venue; and Zurich airport, about 10 km away.
const nearby = { latitude: 47.3677, longitude: 8.5395, accuracy: 20 };
const airport = { latitude: 47.4582, longitude: 8.5555 };

beforeAll(async () => {
  net = await startEscrowDevnet();
});

afterAll(async () => {
  await net?.close();
});

async function fundedMeetingDeal(meeting: Meeting = meetingToday()): Promise<string> {
  const { dealId, deposit } = await steps.openedEscrow({
    assetSymbol: 'WETH',
    assetAmount,
    stableSymbol: 'USDC',
    stableAmount,
    meeting,
  });
  await net.pay(net.seller, 'WETH', deposit.asset, assetAmount);
  await net.pay(net.buyer, 'USDC', deposit.stable, stableAmount);
  await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
  return dealId;
}

const meetingOf = async (party: EscrowParty, dealId: string) => {
  const response = await net.call('GET', `/api/v1/deals/${dealId}/meeting`, party.token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const codeOf = async (party: EscrowParty, dealId: string) => {
  const response = await net.call('GET', `/api/v1/deals/${dealId}/meeting/qr`, party.token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { token: string; qr_text: string; expires_at: string };
};
const checkIn = (party: EscrowParty, dealId: string, body: Record<string, unknown>) =>
  net.call('POST', `/api/v1/deals/${dealId}/meeting/check-in`, party.token, body);
const payoutCount = async (dealId: string) => {
  const [escrow] = await net.database.db
    .select()
    .from(schema.escrows)
    .where(eq(schema.escrows.dealId, dealId));
  const payouts = await net.database.db
    .select()
    .from(schema.escrowPayouts)
    .where(eq(schema.escrowPayouts.escrowId, escrow!.id));
  return payouts.length;
};

describe('check-in at the meeting gates settlement', () => {
  let dealId: string;

  it('holds a funded deal back until both parties checked in', async () => {
    dealId = await fundedMeetingDeal();
    const view = await meetingOf(net.buyer, dealId);
    expect(view).toMatchObject({ required: true, status: 'open', settlement_waits: true, check_ins: [] });
    await net.app.escrow.tick();
    expect(await payoutCount(dealId)).toBe(0);
    const release = await net.call('POST', '/api/v1/escrow/release', net.buyer.token, {
      deal_id: dealId,
      leg: 'asset',
      signature: `0x${'11'.repeat(65)}`,
    });
    expect(release.statusCode, release.body).toBe(409);
    expect(release.json().error.code).toBe('MEETING_PENDING');
  });

  it('refuses the caller’s own code, a code of another deal and garbage, each with its reason', async () => {
    const own = await codeOf(net.seller, dealId);
    const refusal = async (body: Record<string, unknown>) => {
      const response = await checkIn(net.seller, dealId, body);
      expect(response.statusCode, response.body).toBe(422);
      return response.json().error;
    };
    expect(await refusal({ token: own.token })).toMatchObject({ code: 'MEETING_CODE_OWN' });
    const foreign = own.qr_text.replace(dealId, '00000000-0000-4000-8000-000000000000');
    expect(await refusal({ token: foreign, method: 'qr' })).toMatchObject({
      code: 'MEETING_CODE_INVALID',
      message: 'This code belongs to another deal.',
    });
    expect(await refusal({ token: 'AAAA-AAAA' })).toMatchObject({ code: 'MEETING_CODE_INVALID' });
    expect(await refusal({ token: 'not a code' })).toMatchObject({ code: 'MEETING_CODE_INVALID' });
    const half = await checkIn(net.seller, dealId, { token: own.token, latitude: 1 });
    expect(half.statusCode).toBe(400);
  });

  it('checks the seller in by scanning the buyer’s QR near the venue; the same code is refused again', async () => {
    const buyerCode = await codeOf(net.buyer, dealId);
    expect(buyerCode.token).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    const response = await checkIn(net.seller, dealId, { token: buyerCode.qr_text, method: 'qr', ...nearby });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ party: 'seller', method: 'qr', within_radius: true });
    expect(body.distance_meters).toBeGreaterThan(80);
    expect(body.distance_meters).toBeLessThan(160);
    const replay = await checkIn(net.seller, dealId, { token: buyerCode.token });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().error.code).toBe('MEETING_CODE_USED');
    // The position is sealed at rest, and the audit trail has none.
    const [row] = await net.database.db
      .select()
      .from(schema.meetingCheckIns)
      .where(and(eq(schema.meetingCheckIns.dealId, dealId), eq(schema.meetingCheckIns.party, 'seller')));
    expect(row!.positionSealed).toMatch(/^sealed:v1:/);
    expect(row!.positionSealed).not.toContain('47.36');
    const audit = await net.database.db
      .select()
      .from(schema.dealAuditEntries)
      .where(eq(schema.dealAuditEntries.dealId, dealId));
    const entry = audit.find((candidate) => candidate.action === 'meeting_checked_in')!;
    expect(entry.payload).toEqual({
      party: 'seller',
      method: 'qr',
      within_radius: 'yes',
      both_checked_in: false,
    });
    expect(JSON.stringify(audit)).not.toContain('47.36');
    expect((await meetingOf(net.buyer, dealId)).settlement_waits).toBe(true);
  });

  it('refuses an expired code, then checks the buyer in by typed code far away and flags it', async () => {
    const stale = await codeOf(net.seller, dealId);
    await net.clock.advance(150_000);
    const expired = await checkIn(net.buyer, dealId, { token: stale.token });
    expect(expired.statusCode).toBe(422);
    expect(expired.json().error).toMatchObject({
      code: 'MEETING_CODE_EXPIRED',
      message: 'This code has expired. Ask the other party to show their current code.',
    });
    const fresh = await codeOf(net.seller, dealId);
    expect(fresh.token).not.toBe(stale.token);
    // Typed by hand: lower case, without the dash.
    const typed = fresh.token.replace('-', '').toLowerCase();
    const response = await checkIn(net.buyer, dealId, { token: typed, method: 'code', ...airport });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ party: 'buyer', within_radius: false });
    expect(response.json().distance_meters).toBeGreaterThan(9_000);
    const alerts = await net.database.db
      .select()
      .from(schema.staffAlerts)
      .where(eq(schema.staffAlerts.subject, `${dealId}:buyer`));
    expect(alerts.map((alert) => alert.kind)).toEqual(['meeting_check_in_flagged']);
    // Both are in: codes are no longer given out, and check-in is closed.
    const again = await checkIn(net.buyer, dealId, { token: typed });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('MEETING_NOT_OPEN');
    expect((await net.call('GET', `/api/v1/deals/${dealId}/meeting/qr`, net.seller.token)).statusCode).toBe(
      409,
    );
  });

  it('shows both check-ins to the parties, and settles the deal', async () => {
    const view = await meetingOf(net.seller, dealId);
    expect(view.status).toBe('checked_in');
    expect(view.settlement_waits).toBe(false);
    expect(view.check_ins.map((entry: { party: string }) => entry.party)).toEqual(['seller', 'buyer']);
    expect(view.check_ins[0].position).toEqual({ latitude: nearby.latitude, longitude: nearby.longitude });
    await net.app.escrow.tick();
    for (const party of [net.buyer, net.seller]) {
      await steps.approve(party, dealId, party === net.buyer ? 'stable' : 'asset');
    }
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed', 30);
  });

  it('erases positions after the retention period, keeping the check-in and its flag', async () => {
    const later = new Date(net.clock.now.getTime() + 91 * 86_400_000);
    expect(await eraseMeetingPositions(net.database.db, later, 90)).toBeGreaterThanOrEqual(2);
    const rows = await net.database.db
      .select()
      .from(schema.meetingCheckIns)
      .where(eq(schema.meetingCheckIns.dealId, dealId));
    expect(rows.map((row) => [row.party, row.positionSealed, row.withinRadius])).toEqual(
      expect.arrayContaining([
        ['seller', null, 'yes'],
        ['buyer', null, 'no'],
      ]),
    );
    expect((await meetingOf(net.buyer, dealId)).check_ins[0].position).toBeNull();
  });
});

describe('waiving the meeting', () => {
  it('settles once both parties waived it, not after one', async () => {
    const dealId = await fundedMeetingDeal();
    const first = await net.call('POST', `/api/v1/deals/${dealId}/meeting/waive`, net.seller.token);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ waived_by: ['seller'], settlement_waits: true });
    // Waiving twice records nothing more.
    await net.call('POST', `/api/v1/deals/${dealId}/meeting/waive`, net.seller.token);
    await net.app.escrow.tick();
    expect(await payoutCount(dealId)).toBe(0);
    const second = await net.call('POST', `/api/v1/deals/${dealId}/meeting/waive`, net.buyer.token);
    expect(second.json()).toMatchObject({
      status: 'waived',
      waived_by: ['buyer', 'seller'],
      settlement_waits: false,
    });
    const audit = await net.database.db
      .select()
      .from(schema.dealAuditEntries)
      .where(eq(schema.dealAuditEntries.dealId, dealId));
    expect(audit.filter((entry) => entry.action === 'meeting_waived')).toHaveLength(2);
    await net.app.escrow.tick();
    expect(await payoutCount(dealId)).toBe(2);
  });
});

describe('changing the meeting after funding', () => {
  it('applies a change only once the other party accepts it, and records both steps', async () => {
    const dealId = await fundedMeetingDeal();
    const moved = {
      ...meetingToday(),
      location: 'Geneva, Hotel des Bergues',
      latitude: '46.2075',
      longitude: '6.1453',
    };
    const proposed = await net.call('POST', `/api/v1/deals/${dealId}/meeting/change`, net.seller.token, {
      meeting: moved,
    });
    expect(proposed.statusCode, proposed.body).toBe(200);
    expect(proposed.json()).toMatchObject({
      meeting: { location: 'Zurich, Baur au Lac' },
      proposed_change: { meeting: moved, proposed_by: 'seller' },
    });
    const own = await net.call('POST', `/api/v1/deals/${dealId}/meeting/change/accept`, net.seller.token);
    expect(own.statusCode).toBe(409);
    const accepted = await net.call('POST', `/api/v1/deals/${dealId}/meeting/change/accept`, net.buyer.token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ meeting: moved, proposed_change: null });
    const deal = (await net.call('GET', `/api/v1/deals/${dealId}`, net.buyer.token)).json();
    expect(deal).toMatchObject({ meeting: moved, travel_location: moved.location });
    const actions = (
      await net.database.db
        .select()
        .from(schema.dealAuditEntries)
        .where(eq(schema.dealAuditEntries.dealId, dealId))
    ).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['meeting_change_proposed', 'meeting_changed']));
    // Check-in now measures against the new place: Zurich is far from Geneva.
    const code = await codeOf(net.buyer, dealId);
    const far = await checkIn(net.seller, dealId, { token: code.token, ...nearby });
    expect(far.json()).toMatchObject({ within_radius: false });
  });

  it('refuses a change before funding (the terms change then) and without a pending proposal', async () => {
    const dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
      meeting: meetingToday(),
    });
    const early = await net.call('POST', `/api/v1/deals/${dealId}/meeting/change`, net.buyer.token, {
      meeting: meetingToday(),
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe('Before funding, change the meeting by proposing new terms');
    const none = await net.call('POST', `/api/v1/deals/${dealId}/meeting/change/accept`, net.buyer.token);
    expect(none.statusCode).toBe(409);
  });
});

describe('when check-in is not open', () => {
  it('refuses codes before the meeting’s window, and while the deal is disputed', async () => {
    const inTenDays = new Date(net.clock.now.getTime() + 10 * 86_400_000).toISOString().slice(0, 10);
    const later = await fundedMeetingDeal({ ...meetingToday(), starts_on: inTenDays });
    const early = await net.call('GET', `/api/v1/deals/${later}/meeting/qr`, net.buyer.token);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toContain('Check-in opens on');
    const scheduled = await meetingOf(net.buyer, later);
    expect(scheduled.status).toBe('scheduled');
    // Nobody can refund the escrow on-chain before the parties could meet and settle.
    const legs = await net.database.db
      .select({ refundAfter: schema.escrowLegs.refundAfter })
      .from(schema.escrowLegs)
      .innerJoin(schema.escrows, eq(schema.escrows.id, schema.escrowLegs.escrowId))
      .where(eq(schema.escrows.dealId, later));
    for (const leg of legs) {
      expect(leg.refundAfter!.getTime()).toBeGreaterThan(new Date(scheduled.window.closes).getTime());
    }
    const tooLate = new Date(net.clock.now.getTime() + 60 * 86_400_000).toISOString().slice(0, 10);
    const moved = await net.call('POST', `/api/v1/deals/${later}/meeting/change`, net.buyer.token, {
      meeting: { ...meetingToday(), starts_on: tooLate },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error.message).toContain('the meeting must end by');

    const disputed = await fundedMeetingDeal();
    const code = await codeOf(net.buyer, disputed);
    const opened = await net.call('POST', `/api/v1/deals/${disputed}/disputes`, net.buyer.token, {
      reason: 'The seller did not come to the meeting in Zurich as agreed.',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const refused = await checkIn(net.seller, disputed, { token: code.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'MEETING_NOT_OPEN',
      message: 'Check-in is closed while the deal is disputed.',
    });
  });

  it('answers 404 to anybody but the parties, and 409 on a deal without a meeting', async () => {
    const dealId = await net.agreedDeal({
      assetSymbol: 'WETH',
      assetAmount,
      stableSymbol: 'USDC',
      stableAmount,
    });
    const none = await net.call('GET', `/api/v1/deals/${dealId}/meeting`, net.buyer.token);
    expect(none.json()).toMatchObject({ required: false, status: 'not_required', settlement_waits: false });
    const waive = await net.call('POST', `/api/v1/deals/${dealId}/meeting/waive`, net.buyer.token);
    expect(waive.statusCode).toBe(409);
    expect(waive.json().error.code).toBe('MEETING_NOT_REQUIRED');
  });
});
