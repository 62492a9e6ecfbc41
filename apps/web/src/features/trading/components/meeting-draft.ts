import {
  type Meeting,
  type MeetingDuration,
  meetingDurations,
  meetingSchema,
  type TravelPayer,
  travelPayers,
} from '@covenant/domain';

/** The meeting fields of a terms form as typed: coordinates and the date stay text until submit. */
export type MeetingDraft = {
  location: string;
  latitude: string;
  longitude: string;
  startsOn: string;
  duration: MeetingDuration;
  travelPaidBy: TravelPayer;
};

export const emptyMeetingDraft: MeetingDraft = {
  location: '',
  latitude: '',
  longitude: '',
  startsOn: '',
  duration: '1-2',
  travelPaidBy: 'split',
};

export const isMeetingDuration = (value: string): value is MeetingDuration =>
  (meetingDurations as readonly string[]).includes(value);
export const isTravelPayer = (value: string): value is TravelPayer =>
  (travelPayers as readonly string[]).includes(value);

export const meetingDurationLabels: Record<MeetingDuration, string> = {
  '1-2': '1-2 days',
  '1-3': '1-3 days',
  '2-5': '2-5 days',
  '3-7': '3-7 days',
};

export const travelPayerLabels: Record<TravelPayer, string> = {
  buyer: 'Buyer',
  seller: 'Seller',
  split: 'Split 50/50',
};

/** A draft that starts from agreed or proposed meeting details (or the free-text place of older terms). */
export function meetingDraftOf(meeting: Meeting | null | undefined, location: string | null): MeetingDraft {
  if (!meeting) return { ...emptyMeetingDraft, location: location ?? '' };
  return {
    location: meeting.location,
    latitude: meeting.latitude,
    longitude: meeting.longitude,
    startsOn: meeting.starts_on,
    duration: meeting.duration,
    travelPaidBy: meeting.travel_paid_by,
  };
}

export type MeetingDraftField = 'location' | 'latitude' | 'longitude' | 'startsOn';
export type MeetingDraftCheck =
  | { ok: false; errors: Partial<Record<MeetingDraftField, string>> }
  | { ok: true; meeting: Meeting };

const latitudePattern = /^-?\d{1,2}(\.\d{1,6})?$/;
const longitudePattern = /^-?\d{1,3}(\.\d{1,6})?$/;

/**
 * The meeting as the terms carry it, or a message per field that is missing or malformed. The
 * coordinates stay decimal strings (at most 6 decimals), as the terms hash holds no fractions; the
 * domain's schema has the last word, so the form never sends what the server would refuse.
 */
export function checkMeetingDraft(draft: MeetingDraft): MeetingDraftCheck {
  const latitude = draft.latitude.trim();
  const longitude = draft.longitude.trim();
  const errors: Partial<Record<MeetingDraftField, string>> = {};
  if (!draft.location.trim()) errors.location = 'Enter the meeting location (city and venue).';
  else if (draft.location.trim().length > 200)
    errors.location = 'The meeting location is at most 200 characters.';
  if (!latitudePattern.test(latitude) || Math.abs(Number(latitude)) > 90) {
    errors.latitude = 'Latitude is a number from -90 to 90 with at most 6 decimals, e.g. 46.2075.';
  }
  if (!longitudePattern.test(longitude) || Math.abs(Number(longitude)) > 180) {
    errors.longitude = 'Longitude is a number from -180 to 180 with at most 6 decimals, e.g. 6.1432.';
  }
  const parsed = meetingSchema.safeParse({
    location: draft.location,
    latitude,
    longitude,
    starts_on: draft.startsOn,
    duration: draft.duration,
    travel_paid_by: draft.travelPaidBy,
  });
  if (!parsed.success && parsed.error.issues.some((issue) => issue.path[0] === 'starts_on')) {
    errors.startsOn = 'Choose the first day of the meeting.';
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, meeting: parsed.data };
}
