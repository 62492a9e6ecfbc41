// The statements a password sign-in (POST /api/v1/auth/login) sends after the address's rate-limit
// count (statements.rateLimit), as our server's statement log shows them (whitespace aside; named
// where ours are named): the bare sign-in of bare-deals-server.ts sends exactly these. When ours
// change, these change with them.
export const signInStatements = {
  userAccountByEmail: {
    name: 'user_account_by_email',
    text: `select "id", "email", "password_hash", "email_confirmed_at", "confirmation_sent_at", "recovery_sent_at", "new_email", "email_change_sent_at", "reauthentication_sent_at", "last_sign_in_at", "user_metadata", "created_at", "updated_at", array(select "role" from "user_roles" where "user_id" = "users"."id" order by 1), exists(select 1 from "mfa_factors" where "user_id" = "users"."id"), exists(select 1 from "identities" where "user_id" = "users"."id") from "users" where lower("users"."email") = lower($1)`,
  },
  startSession: {
    name: 'start_session',
    text: `with new_session as ( insert into "sessions" (user_id, aal, amr, ip, user_agent, created_at) values ($1, 'aal1', $2::jsonb, $3, $4, $5::timestamptz) returning id ), first_token as ( insert into "refresh_tokens" (session_id, token_hash, created_at) select id, $6, $7::timestamptz from new_session ), signed_in as ( update "users" set last_sign_in_at = $8::timestamptz where id = $9 ) select id from new_session`,
  },
} as const;
