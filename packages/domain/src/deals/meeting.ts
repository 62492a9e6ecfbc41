import { z } from 'zod';

/** The meeting durations the Meet page offers, in days (shortest-longest). */
export const meetingDurations = ['1-2', '1-3', '2-5', '3-7'] as const;
export type MeetingDuration = (typeof meetingDurations)[number];

/** Who bears the cost of travel paid out of the stable leg. */
export const travelPayers = ['buyer', 'seller', 'split'] as const;
export type TravelPayer = (typeof travelPayers)[number];

export const travelKinds = ['flight', 'hotel', 'ground'] as const;
export type TravelKindName = (typeof travelKinds)[number];

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The meeting the terms require: where (free text and coordinates), when (first day and duration)
 * and who pays for travel. Part of the terms: changing it is a new version both parties accept.
 */
export const meetingSchema = z.object({
  location: z.string().trim().min(1).max(200),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  starts_on: z
    .string()
    .regex(isoDate, 'A date as YYYY-MM-DD')
    .refine((value) => isRealDate(value), 'A date that exists'),
  duration: z.enum(meetingDurations),
  travel_paid_by: z.enum(travelPayers),
});
export type Meeting = z.infer<typeof meetingSchema>;

function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const dayMs = 86_400_000;

/**
 * When check-in is open: from 00:00 UTC of the first day until the end of the duration's longest
 * day count (a "1-3" meeting starting 2026-12-01 is open until 2026-12-04 00:00 UTC), with a day
 * of grace either side for time zones.
 */
export function meetingWindow(meeting: Pick<Meeting, 'starts_on' | 'duration'>): {
  opens: Date;
  closes: Date;
} {
  const start = new Date(`${meeting.starts_on}T00:00:00Z`).getTime();
  const longest = Number(meeting.duration.split('-')[1]);
  return { opens: new Date(start - dayMs), closes: new Date(start + (longest + 1) * dayMs) };
}

/** Great-circle distance in metres between two positions (haversine, mean Earth radius). */
export function distanceMeters(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The part of a travel payout of `amount` base units charged to the stable leg's receiver (the
 * seller): all of it, none, or half rounded down when split (the buyer bears the odd base unit).
 * The rest is the depositor's (the buyer's) share, paid from what the buyer deposited beyond the
 * stable amount.
 */
export function travelReceiverShare(amount: bigint, paidBy: TravelPayer): bigint {
  if (paidBy === 'seller') return amount;
  if (paidBy === 'buyer') return 0n;
  return amount / 2n;
}

/**
 * Whether the stable leg can pay a travel quote of `amount` now, and still settle exactly: after it
 * the escrow must hold at least what the release pays out (the stable amount less what travel
 * charges the receiver), and the receiver's payout may not go below zero.
 *
 * `held` = what the leg holds now (confirmed deposits − confirmed and pending travel payouts);
 * `charged` = what travel already paid charges the receiver; `fee` = the leg's platform fee.
 * Answers the shortfall the buyer must deposit first (0n when payable), or null when the receiver's
 * share would exceed what the receiver gets.
 */
export function travelQuoteShortfall(input: {
  amount: bigint;
  paidBy: TravelPayer;
  required: bigint;
  held: bigint;
  charged: bigint;
  fee: bigint;
}): bigint | null {
  const charged = input.charged + travelReceiverShare(input.amount, input.paidBy);
  if (charged > input.required - input.fee) return null;
  const needed = input.amount + (input.required - charged);
  return needed > input.held ? needed - input.held : 0n;
}
