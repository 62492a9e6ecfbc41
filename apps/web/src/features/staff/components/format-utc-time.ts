const dateFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** A moment of the support inbox as staff read it, in UTC whatever their own time zone ("21 Nov 2026, 09:30 UTC"). */
export function formatUtcTime(iso: string): string {
  return `${dateFormat.format(new Date(iso))} UTC`;
}
