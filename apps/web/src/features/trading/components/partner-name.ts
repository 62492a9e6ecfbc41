// Usernames are optional at sign-up: a trader without one is still told apart by the id's start.
export function partnerName({ id, username }: { id: string; username: string | null }): string {
  return username ?? `Trader ${id.slice(0, 8)}`;
}
