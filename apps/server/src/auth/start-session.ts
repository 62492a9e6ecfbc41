import { oncePerDatabase, prepareStatement, schema } from '@covenant/db';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { AuthDeps } from './auth-deps.js';
import { issueSessionResponse, type SessionResponse } from './issue-session-response.js';
import type { UserAccount } from './load-user-account.js';
import { generateOpaqueToken, hashOpaqueToken } from './opaque-tokens.js';

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

/**
 * Signs `account` in on a new device: a session at aal1 remembering how the user proved who they
 * are (`method` becomes the session's first `amr` entry), its first refresh token, and the tokens.
 */
export async function startSession(
  deps: AuthDeps,
  account: UserAccount,
  method: string,
  client: ClientInfo,
): Promise<SessionResponse> {
  const now = deps.now();
  const refreshToken = generateOpaqueToken();
  const amr: schema.AuthMethodReference[] = [{ method, timestamp: Math.floor(now.getTime() / 1000) }];
  const at = now.toISOString();
  const [id] = await startSessionStatement(deps.db).execute({
    userId: account.user.id,
    amr: JSON.stringify(amr),
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
    tokenHash: hashOpaqueToken(refreshToken),
    at,
  });
  if (!id) throw new Error('no session was started');
  const session = { id, aal: 'aal1' as const, amr };
  const signedIn = { ...account, user: { ...account.user, lastSignInAt: now } };
  return issueSessionResponse(deps, signedIn, session, refreshToken);
}

const placeholder = sql.placeholder;

/**
 * One statement, so one round trip instead of five (begin, three writes, commit), and as atomic:
 * the session, its first refresh token and the user's last sign-in are written together or not at
 * all. Named, so PostgreSQL parses and plans it once per connection, not on every sign-in.
 */
const startSessionStatement = oncePerDatabase((db) => {
  const query = new PgDialect().sqlToQuery(sql`
    with new_session as (
      insert into ${schema.sessions} (user_id, aal, amr, ip, user_agent, created_at)
      values (${placeholder('userId')}, 'aal1', ${placeholder('amr')}::jsonb, ${placeholder('ip')},
              ${placeholder('userAgent')}, ${placeholder('at')}::timestamptz)
      returning id
    ), first_token as (
      insert into ${schema.refreshTokens} (session_id, token_hash, created_at)
      select id, ${placeholder('tokenHash')}, ${placeholder('at')}::timestamptz from new_session
    ), signed_in as (
      update ${schema.users} set last_sign_in_at = ${placeholder('at')}::timestamptz
      where id = ${placeholder('userId')}
    )
    select id from new_session`);
  return prepareStatement(db, 'start_session', { toSQL: () => query }, (row) => row[0] as string);
});
