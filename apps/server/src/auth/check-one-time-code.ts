import { timingSafeEqual } from 'node:crypto';
import { type Db, schema } from '@covenant/db';
import { eq, sql } from 'drizzle-orm';
import { hashCode } from './send-one-time-token.js';

type TokenRow = typeof schema.oneTimeTokens.$inferSelect;

/** Wrong codes a token survives; then it is gone and a new one must be requested. */
const maximumFailedAttempts = 5;

export function codeMatches(token: TokenRow, code: string): boolean {
  const expected = Buffer.from(token.codeHash);
  const given = Buffer.from(hashCode(token.tokenHash, code));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Six digits are guessable: each wrong try counts, and the last allowed one destroys the token. */
export async function recordFailedCodeAttempt(db: Db, token: TokenRow): Promise<void> {
  const tokens = schema.oneTimeTokens;
  if (token.failedAttempts + 1 >= maximumFailedAttempts) {
    await db.delete(tokens).where(eq(tokens.id, token.id));
    return;
  }
  await db
    .update(tokens)
    .set({ failedAttempts: sql`${tokens.failedAttempts} + 1` })
    .where(eq(tokens.id, token.id));
}
