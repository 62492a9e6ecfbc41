import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './timestamps.js';

/** An authentication method and when it was used, as GoTrue puts it into the `amr` claim. */
export interface AuthMethodReference {
  method: string;
  timestamp: number;
}

/**
 * Accounts of the GoTrue-compatible auth service. E-mail addresses are unique regardless of case;
 * `new_email` holds an address change that waits for its confirmation link.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /** argon2id hash; null for accounts created by an e-mail one-time code that never set a password. */
    passwordHash: text('password_hash'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    confirmationSentAt: timestamp('confirmation_sent_at', { withTimezone: true }),
    recoverySentAt: timestamp('recovery_sent_at', { withTimezone: true }),
    newEmail: text('new_email'),
    emailChangeSentAt: timestamp('email_change_sent_at', { withTimezone: true }),
    reauthenticationSentAt: timestamp('reauthentication_sent_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    userMetadata: jsonb('user_metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`)],
);

/** A signed-in device. Deleting the row signs it out: its refresh tokens go with it. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Authenticator assurance level: 'aal1' after a first factor, 'aal2' after a verified TOTP code. */
    aal: text('aal').$type<'aal1' | 'aal2'>().notNull().default('aal1'),
    amr: jsonb('amr').$type<AuthMethodReference[]>().notNull().default([]),
    factorId: uuid('factor_id'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

/**
 * Opaque refresh tokens, stored only as SHA-256 hashes. Each use rotates a token into a child
 * derived from it (HMAC of the parent with the child's random salt), so a client that lost the
 * answer to its refresh can be handed the current child again within the reuse interval.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    parentId: uuid('parent_id'),
    /** Random input that, with the parent token, derives this token; null for the first token of a session. */
    salt: text('salt'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('refresh_tokens_token_hash_idx').on(table.tokenHash),
    index('refresh_tokens_session_id_idx').on(table.sessionId),
    index('refresh_tokens_parent_id_idx').on(table.parentId),
  ],
);

export type OneTimeTokenType = 'signup' | 'recovery' | 'email_change' | 'email' | 'reauthentication';

/**
 * Single-use e-mail tokens: a long random link token and a 6-digit code, both stored hashed.
 * `email` is the address the message went to (the new address for an e-mail change).
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').$type<OneTimeTokenType>().notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    redirectTo: text('redirect_to'),
    /**
     * A sign-up token's password, installed only when this very token is verified: a password typed
     * before the address was proven may be a squatter's, so it is never the account's until then.
     */
    passwordHash: text('password_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('one_time_tokens_token_hash_idx').on(table.tokenHash),
    uniqueIndex('one_time_tokens_user_type_idx').on(table.userId, table.type),
    index('one_time_tokens_email_idx').on(sql`lower(${table.email})`),
  ],
);

/** TOTP second factors. The secret stays on the server: only the user's authenticator app shares it. */
export const mfaFactors = pgTable(
  'mfa_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    friendlyName: text('friendly_name'),
    factorType: text('factor_type').$type<'totp'>().notNull(),
    status: text('status').$type<'unverified' | 'verified'>().notNull().default('unverified'),
    secret: text('secret').notNull(),
    /** The TOTP time step of the last accepted code: a code is never accepted twice. */
    lastTimeStep: bigint('last_time_step', { mode: 'number' }),
    lastChallengedAt: timestamp('last_challenged_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('mfa_factors_user_id_idx').on(table.userId),
    uniqueIndex('mfa_factors_user_friendly_name_idx')
      .on(table.userId, table.friendlyName)
      .where(sql`${table.friendlyName} is not null`),
  ],
);

export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    factorId: uuid('factor_id')
      .notNull()
      .references(() => mfaFactors.id, { onDelete: 'cascade' }),
    ip: text('ip'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('mfa_challenges_factor_id_idx').on(table.factorId)],
);

export type VerificationStatus = 'unverified' | 'pending' | 'verified' | 'rejected';
export type TradingTier = 'basic' | 'enhanced' | 'institutional';

/** The trader's public face (spec: profiles): one per user, same id. Usernames are unique regardless of case. */
export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    username: text('username'),
    verificationStatus: text('verification_status')
      .$type<VerificationStatus>()
      .notNull()
      .default('unverified'),
    tradingTier: text('trading_tier').$type<TradingTier>().notNull().default('basic'),
    kycCompleted: boolean('kyc_completed').notNull().default(false),
    /**
     * The per-transaction limit in whole US dollars set by compliance for the institutional tier;
     * null for basic and enhanced, whose limits are fixed rules.
     */
    tierLimitUsd: numeric('tier_limit_usd', { precision: 20, scale: 0 }),
    /** The trader asked not to be suggested to others as a counterparty (GET /api/v1/partners/matches). */
    matchingOptOut: boolean('matching_opt_out').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('profiles_username_lower_idx').on(sql`lower(${table.username})`)],
);

export type UserRole = 'mediator' | 'admin' | 'compliance' | 'concierge';

/** Staff roles; they travel in the access token's `app_metadata.roles`. */
export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<UserRole>().notNull(),
    /** The admin who granted the role (null for roles seeded or granted before this was recorded). */
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.role] })],
);

/**
 * Every staff role granted or revoked, and by whom: append-only, so a revoked role (whose `user_roles`
 * row is gone) still shows who held it, until when, and who took it away.
 */
export const staffRoleChanges = pgTable(
  'staff_role_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<UserRole>().notNull(),
    change: text('change').$type<'granted' | 'revoked'>().notNull(),
    /** The admin who made the change (null once that account is deleted). */
    changedBy: uuid('changed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [index('staff_role_changes_user_idx').on(table.userId, table.createdAt)],
);

export type IdentityProvider = 'google';

/**
 * Sign-in identities of other providers (GoTrue's `auth.identities`): an OpenID Connect subject
 * linked to an account. A provider's subject belongs to one account; the e-mail sign-in itself is not
 * stored here (it is the account's own address and password).
 */
export const identities = pgTable(
  'identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<IdentityProvider>().notNull(),
    /** The provider's `sub` claim: stable for the provider's account, unlike its e-mail address. */
    providerId: text('provider_id').notNull(),
    email: text('email').notNull(),
    /** The ID token's profile claims, as GoTrue lists them in `identity_data`. */
    identityData: jsonb('identity_data').$type<Record<string, unknown>>().notNull().default({}),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('identities_provider_subject_idx').on(table.provider, table.providerId),
    index('identities_user_id_idx').on(table.userId),
  ],
);

/**
 * A sign-in with a provider between the redirect to it and its callback (GoTrue's flow state). The
 * state is stored hashed and the row deleted when the callback uses it, so each state works once.
 */
export const oauthFlows = pgTable(
  'oauth_flows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').$type<IdentityProvider>().notNull(),
    stateHash: text('state_hash').notNull(),
    /** The nonce the provider must put into its ID token. */
    nonce: text('nonce').notNull(),
    /** Our PKCE verifier towards the provider, sealed (ADR 018). */
    providerCodeVerifier: text('provider_code_verifier').notNull(),
    redirectTo: text('redirect_to').notNull(),
    /** The client's own PKCE challenge (`s256` or `plain`); null for the implicit flow. */
    codeChallenge: text('code_challenge'),
    codeChallengeMethod: text('code_challenge_method').$type<'s256' | 'plain'>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('oauth_flows_state_hash_idx').on(table.stateHash)],
);

/**
 * The code a PKCE client exchanges for its session after a provider's callback
 * (`POST /token?grant_type=pkce`): stored hashed, single use, short-lived.
 */
export const oauthAuthCodes = pgTable(
  'oauth_auth_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeHash: text('code_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<IdentityProvider>().notNull(),
    codeChallenge: text('code_challenge').notNull(),
    codeChallengeMethod: text('code_challenge_method').$type<'s256' | 'plain'>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('oauth_auth_codes_code_hash_idx').on(table.codeHash)],
);

/**
 * A provider identity whose e-mail address belongs to an existing account: linked only once the
 * browser that brought it signs in to that account with its password (no takeover by e-mail alone).
 * The token lives in an HttpOnly cookie of that browser and here only as its hash.
 */
export const pendingIdentityLinks = pgTable(
  'pending_identity_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<IdentityProvider>().notNull(),
    providerId: text('provider_id').notNull(),
    email: text('email').notNull(),
    identityData: jsonb('identity_data').$type<Record<string, unknown>>().notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('pending_identity_links_token_hash_idx').on(table.tokenHash),
    index('pending_identity_links_user_id_idx').on(table.userId),
  ],
);
