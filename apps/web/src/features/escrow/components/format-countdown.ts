/**
 * Time left until a deadline in words a trader reads at a glance: "23 h 59 min" while hours remain,
 * "4 min 05 s" in the last hour (when seconds start to matter), null once it has passed.
 */
export function formatCountdown(deadline: Date, now: Date): string | null {
  const seconds = Math.floor((deadline.getTime() - now.getTime()) / 1000);
  if (seconds <= 0) return null;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${String(rest).padStart(2, '0')} s`;
  return `${rest} s`;
}
