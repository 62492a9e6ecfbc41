import { meetingDurations, travelPayers } from '@covenant/domain';
import { FieldError } from '@/components/ui/field-error.js';
import { FormField } from '@/components/ui/form-field.js';
import {
  isMeetingDuration,
  isTravelPayer,
  type MeetingDraft,
  type MeetingDraftField,
  meetingDurationLabels,
  travelPayerLabels,
} from './meeting-draft.js';
import { SelectField } from './select-field.js';

/**
 * The meeting's terms, shown once "Require in-person meeting" is ticked: the place (free text and
 * typed coordinates: no map tiles are reachable from the app), the first day, the duration option
 * of the Meet page, and who bears the travel cost. `idPrefix` keeps two forms on a page apart.
 */
export function MeetingFields({
  idPrefix,
  draft,
  errors,
  onChange,
}: {
  idPrefix: string;
  draft: MeetingDraft;
  errors: Partial<Record<MeetingDraftField, string>>;
  onChange: (changes: Partial<MeetingDraft>) => void;
}) {
  const field = (name: MeetingDraftField) => ({
    id: `${idPrefix}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${idPrefix}-${name}-error` : undefined,
  });
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2">
      <legend className="mb-3 font-medium text-muted text-sm">Meeting</legend>
      <div className="space-y-2 sm:col-span-2">
        <FormField
          {...field('location')}
          label="Meeting Location"
          placeholder="City, country"
          maxLength={200}
          value={draft.location}
          onChange={(event) => onChange({ location: event.target.value })}
        />
        <FieldError id={`${idPrefix}-location-error`} message={errors.location} />
      </div>
      <div className="space-y-2">
        <FormField
          {...field('latitude')}
          label="Latitude"
          inputMode="decimal"
          placeholder="46.2075"
          value={draft.latitude}
          onChange={(event) => onChange({ latitude: event.target.value })}
        />
        <FieldError id={`${idPrefix}-latitude-error`} message={errors.latitude} />
      </div>
      <div className="space-y-2">
        <FormField
          {...field('longitude')}
          label="Longitude"
          inputMode="decimal"
          placeholder="6.1432"
          value={draft.longitude}
          onChange={(event) => onChange({ longitude: event.target.value })}
        />
        <FieldError id={`${idPrefix}-longitude-error`} message={errors.longitude} />
      </div>
      <div className="space-y-2">
        <FormField
          {...field('startsOn')}
          label="First day"
          type="date"
          value={draft.startsOn}
          onChange={(event) => onChange({ startsOn: event.target.value })}
        />
        <FieldError id={`${idPrefix}-startsOn-error`} message={errors.startsOn} />
      </div>
      <SelectField
        id={`${idPrefix}-duration`}
        label="Duration"
        value={draft.duration}
        options={meetingDurations.map((value) => ({ value, label: meetingDurationLabels[value] }))}
        onChange={(event) =>
          isMeetingDuration(event.target.value) && onChange({ duration: event.target.value })
        }
      />
      <SelectField
        id={`${idPrefix}-travel-paid-by`}
        label="Travel paid by"
        value={draft.travelPaidBy}
        options={travelPayers.map((value) => ({ value, label: travelPayerLabels[value] }))}
        onChange={(event) =>
          isTravelPayer(event.target.value) && onChange({ travelPaidBy: event.target.value })
        }
      />
    </fieldset>
  );
}
