import { describe, expect, it } from 'vitest';
import {
  distanceMeters,
  meetingSchema,
  meetingWindow,
  travelQuoteShortfall,
  travelReceiverShare,
} from './meeting.js';

const meeting = {
  location: 'Zurich, Baur au Lac',
  latitude: '47.3667',
  longitude: '8.5392',
  starts_on: '2026-12-01',
  duration: '1-3',
  travel_paid_by: 'seller',
} as const;

describe('meetingSchema', () => {
  it('accepts a complete meeting and refuses dates that do not exist or coordinates off the globe', () => {
    expect(meetingSchema.parse(meeting)).toEqual(meeting);
    expect(meetingSchema.safeParse({ ...meeting, starts_on: '2026-02-30' }).success).toBe(false);
    expect(meetingSchema.safeParse({ ...meeting, starts_on: '1 Dec 2026' }).success).toBe(false);
    expect(meetingSchema.safeParse({ ...meeting, latitude: '91' }).success).toBe(false);
    expect(meetingSchema.safeParse({ ...meeting, latitude: 47.3 }).success).toBe(false);
    expect(meetingSchema.safeParse({ ...meeting, latitude: '47.1234567' }).success).toBe(false);
    expect(meetingSchema.safeParse({ ...meeting, latitude: '-90.000000' }).success).toBe(true);
    expect(meetingSchema.safeParse({ ...meeting, longitude: '-180.5' }).success).toBe(false);
    expect(meetingSchema.safeParse({ ...meeting, longitude: '1e2' }).success).toBe(false);
    expect(meetingSchema.safeParse({ ...meeting, duration: '1-4' }).success).toBe(false);
  });
});

describe('meetingWindow', () => {
  it('opens a day before the first day and closes a day after the longest duration', () => {
    // 1-3 days from 2026-12-01: days 1, 2 and 3 end at 2026-12-04 00:00; one day of grace either side.
    expect(meetingWindow(meeting)).toEqual({
      opens: new Date('2026-11-30T00:00:00Z'),
      closes: new Date('2026-12-05T00:00:00Z'),
    });
  });
});

describe('distanceMeters', () => {
  it('measures great-circle distances', () => {
    expect(distanceMeters(meeting, meeting)).toBe(0);
    // One degree of latitude is about 111.2 km.
    expect(Math.round(distanceMeters({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 }))).toBe(
      111_195,
    );
    // Zurich main station to Baur au Lac, about 1.2 km.
    const d = distanceMeters({ latitude: 47.3779, longitude: 8.5403 }, meeting);
    expect(d).toBeGreaterThan(1_100);
    expect(d).toBeLessThan(1_400);
  });
});

describe('travel shares', () => {
  it('charges the receiver all, none or half rounded down', () => {
    expect(travelReceiverShare(1_001n, 'seller')).toBe(1_001n);
    expect(travelReceiverShare(1_001n, 'buyer')).toBe(0n);
    // 1001 / 2 = 500.5: the receiver (seller) bears 500, the buyer 501.
    expect(travelReceiverShare(1_001n, 'split')).toBe(500n);
  });

  it('refuses a quote the leg cannot pay and still settle exactly', () => {
    // Stable amount 100,000.000000 USDC, fee 10.000000 (1 bp), deposited exactly.
    const base = { required: 100_000_000_000n, held: 100_000_000_000n, charged: 0n, fee: 10_000_000n };
    // Seller pays 2,000 USDC: release pays 100,000 − 2,000 = 98,000 after it; held 98,000. Payable.
    expect(travelQuoteShortfall({ ...base, amount: 2_000_000_000n, paidBy: 'seller' })).toBe(0n);
    // Buyer pays: the release still needs 100,000, so the buyer must deposit the 2,000 first.
    expect(travelQuoteShortfall({ ...base, amount: 2_000_000_000n, paidBy: 'buyer' })).toBe(2_000_000_000n);
    // Split: seller share 1,000; release needs 99,000 + 2,000 paid = 101,000 held; 1,000 short.
    expect(travelQuoteShortfall({ ...base, amount: 2_000_000_000n, paidBy: 'split' })).toBe(1_000_000_000n);
    // Seller pays more than it receives (100,000 − 10 fee): refused outright.
    expect(travelQuoteShortfall({ ...base, amount: 99_990_000_001n, paidBy: 'seller' })).toBeNull();
    expect(travelQuoteShortfall({ ...base, amount: 99_990_000_000n, paidBy: 'seller' })).toBe(0n);
  });
});
