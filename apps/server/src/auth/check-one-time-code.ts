import { timingSafeEqual } from 'node:crypto';
import { type Db, schema } from '@covenant/db';
import { and, eq, lt, sql } from 'drizzle-orm';
import { hashCode } from './send-one-time-token.js';

type TokenRow = typeof schema.oneTimeTokens.$inferSelect;

/** Codes a token may be tried with; then it is gone and a new one must be requested. */
const maximumAttempts = 5;

function codeMatches(token: TokenRow, code: string): boolean {
  const expected = Buffer.from(token.codeHash);
  const given = Buffer.from(hashCode(token.tokenHash, code));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Tries `code` against the token `tokenId`. Six digits are guessable, so the attempt is counted
 * before the comparison, by a write that refuses once the attempts are spent: guesses sent at once
 * each take their own attempt and together get no more than one guesser would. The token as it was
 * tried when the code is right (the caller consumes it); undefined otherwise, and a token whose last
 * attempt this was is deleted. `failed_attempts` therefore counts a right try too, until it is consumed.
 */
export async function tryOneTimeCode(db: Db, tokenId: string, code: string): Promise<TokenRow | undefined> {
  const tokens = schema.oneTimeTokens;
  const [tried] = await db
    .update(tokens)
    .set({ failedAttempts: sql`${tokens.failedAttempts} + 1` })
    .where(and(eq(tokens.id, tokenId), lt(tokens.failedAttempts, maximumAttempts)))
    .returning();
  if (!tried) return undefined;
  if (codeMatches(tried, code)) return tried;
  if (tried.failedAttempts >= maximumAttempts) {
    await db.delete(tokens).where(and(eq(tokens.id, tried.id), eq(tokens.codeHash, tried.codeHash)));
  }
  return undefined;
}

/**
 * Deletes the token that was read or tried, if no one else did meanwhile (nor replaced it with a
 * new one): true for exactly one of several requests spending the same token at once.
 */
export async function consumeOneTimeToken(db: Db, token: TokenRow): Promise<boolean> {
  const tokens = schema.oneTimeTokens;
  const consumed = await db
    .delete(tokens)
    .where(and(eq(tokens.id, token.id), eq(tokens.tokenHash, token.tokenHash)))
    .returning({ id: tokens.id });
  return consumed.length === 1;
}
