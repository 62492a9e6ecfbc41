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
 * A coordinate in decimal degrees as a string with at most 6 decimals (about 0.1 m): part of the
 * terms, so it goes into the terms hash, whose canonical JSON holds no fractions (docs/audit-trail.md).
 */
const coordinate = (digits: number, limit: number, what: string) =>
  z
    .string()
    .regex(new RegExp(`^-?\\d{1,${digits}}(\\.\\d{1,6})?$`), `${what} in decimal degrees, e.g. "46.2075"`)
    .refine((value) => Math.abs(Number(value)) <= limit, `${what} between -${limit} and ${limit}`)
    .describe(`${what} in decimal degrees as a string, at most 6 decimals`);

/**
 * The meeting the terms require: where (free text and coordinates), when (first day and duration)
 * and who pays for travel. Part of the terms: changing it is a new version both parties accept.
 */
export const meetingSchema = z.object({
  location: z.string().trim().min(1).max(200),
  latitude: coordinate(2, 90, 'Latitude'),
  longitude: coordinate(3, 180, 'Longitude'),
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
  a: { latitude: number | string; longitude: number | string },
  b: { latitude: number | string; longitude: number | string },
): number {
  const radians = (degrees: number | string) => (Number(degrees) * Math.PI) / 180;
  const [lat1, lon1, lat2, lon2] = [a.latitude, a.longitude, b.latitude, b.longitude].map(radians) as [
    number,
    number,
    number,
    number,
  ];
  const h =
    Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
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

export const meetingStatuses = [
  'not_required',
  'awaiting_details',
  'scheduled',
  'open',
  'checked_in',
  'waived',
] as const;
export type MeetingStatus = (typeof meetingStatuses)[number];

const party = z.enum(['buyer', 'seller']);

export const meetingCheckInSchema = z.object({
  party,
  at: z.string(),
  method: z.enum(['qr', 'code']),
  within_radius: z
    .boolean()
    .nullable()
    .describe('Whether the shared position was within the radius of the meeting; null when none was shared'),
  distance_meters: z.number().int().nullable(),
  position: z
    .object({ latitude: z.number(), longitude: z.number() })
    .nullable()
    .describe('The position shared at check-in; null when none was shared or after the retention period'),
});
export type MeetingCheckIn = z.infer<typeof meetingCheckInSchema>;

/** A deal's meeting as its parties see it (`GET /deals/{id}/meeting`), without travel. */
export const meetingViewSchema = z.object({
  required: z.boolean(),
  meeting: meetingSchema.nullable(),
  status: z
    .enum(meetingStatuses)
    .describe(
      '`awaiting_details`: required but not fully proposed; `scheduled`: agreed, check-in not open (escrow not funded or outside the window); `open`: check-in open; `checked_in`: both checked in; `waived`: both waived',
    ),
  window: z.object({ opens: z.string(), closes: z.string() }).nullable(),
  check_ins: z.array(meetingCheckInSchema),
  waived_by: z.array(party),
  settlement_waits: z
    .boolean()
    .describe('True while the funded escrow cannot settle: neither both checked in nor both waived'),
  proposed_change: z
    .object({ meeting: meetingSchema, proposed_by: party })
    .nullable()
    .describe('A change of the meeting proposed after funding, waiting for the other party'),
});
export type MeetingViewBase = z.infer<typeof meetingViewSchema>;

/** The caller's own rotating check-in code, shown as a QR and as text. */
export const meetingCodeSchema = z.object({
  token: z.string().describe('The code to type, e.g. "7KQM-4XPA"'),
  qr_text: z.string().describe('What the QR code carries; the check-in route accepts it as the token'),
  expires_at: z.string(),
});
export type MeetingCode = z.infer<typeof meetingCodeSchema>;

/** `POST /deals/{id}/meeting/check-in`: the counterparty's code and, with consent, the position. */
export const meetingCheckInBodySchema = z
  .object({
    token: z.string().min(1).max(120).describe("The other party's code, typed or scanned from its QR"),
    method: z.enum(['qr', 'code']).default('code'),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    accuracy: z.number().min(0).max(1_000_000).optional(),
  })
  .refine((body) => (body.latitude === undefined) === (body.longitude === undefined), {
    message: 'Send latitude and longitude together, or neither',
    path: ['longitude'],
  });
export type MeetingCheckInBody = z.infer<typeof meetingCheckInBodySchema>;
