/**
 * A time as the parties and staff read deadlines: "2026-12-02 01:00 UTC" (to the minute, in UTC, the
 * same on every screen, e-mail and API message). Undefined for a text that is no time.
 */
export function formatUtcMinute(time: Date | string): string | undefined {
  const date = typeof time === 'string' ? new Date(time) : time;
  if (Number.isNaN(date.getTime())) return undefined;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
