import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import type { SupportDeps } from './support-deps.js';

/**
 * Whether a support form's confirmation may repeat what the sender typed: only when a signed-in
 * account sent it to that account's own address. A signed-out sender, or one who typed another
 * address, gets the reference and our own labels only (the form would otherwise mail any text to
 * any address, under our name).
 */
export async function mayEchoToAddress(
  deps: Pick<SupportDeps, 'db'>,
  input: { userId: string | undefined; email: string },
): Promise<boolean> {
  if (!input.userId) return false;
  const [account] = await deps.db
    .select({ email: schema.users.email })
    .from(schema.users)
    .where(eq(schema.users.id, input.userId));
  return account !== undefined && account.email.toLowerCase() === input.email.toLowerCase();
}
