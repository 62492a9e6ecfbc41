import type { Meeting } from '@covenant/domain';
import { meetingDurationLabels, travelPayerLabels } from './meeting-draft.js';

/** The meeting's terms as the deal room shows them: place, coordinates, dates and who pays travel. */
export function describeMeeting(meeting: Meeting) {
  return {
    place: meeting.location,
    coordinates: `${meeting.latitude}, ${meeting.longitude}`,
    dates: `From ${meeting.starts_on} (UTC), ${meetingDurationLabels[meeting.duration]}`,
    travelPaidBy: travelPayerLabels[meeting.travel_paid_by],
  };
}
