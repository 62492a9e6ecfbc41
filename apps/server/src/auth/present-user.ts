import type { UserAccount } from './load-user-account.js';

/** A factor as GoTrue lists it in `user.factors`. */
export interface GoTrueFactor {
  id: string;
  friendly_name?: string;
  factor_type: 'totp';
  status: 'verified' | 'unverified';
  created_at: string;
  updated_at: string;
  last_challenged_at?: string;
}

/** GoTrue's user object, the shape `@supabase/auth-js` keeps in its session. */
export interface GoTrueUser {
  id: string;
  aud: 'authenticated';
  role: 'authenticated';
  email: string;
  email_confirmed_at?: string;
  confirmed_at?: string;
  phone: string;
  confirmation_sent_at?: string;
  recovery_sent_at?: string;
  new_email?: string;
  email_change_sent_at?: string;
  last_sign_in_at?: string;
  app_metadata: { provider: 'email'; providers: ['email']; roles?: string[] };
  user_metadata: Record<string, unknown>;
  identities: {
    identity_id: string;
    id: string;
    user_id: string;
    identity_data: Record<string, unknown>;
    provider: 'email';
    email: string;
    last_sign_in_at?: string;
    created_at: string;
    updated_at: string;
  }[];
  factors?: GoTrueFactor[];
  created_at: string;
  updated_at: string;
  is_anonymous: false;
}

export function appMetadataOf(roles: string[]): GoTrueUser['app_metadata'] {
  return roles.length > 0
    ? { provider: 'email', providers: ['email'], roles }
    : { provider: 'email', providers: ['email'] };
}

const iso = (date: Date | null | undefined) => date?.toISOString();

export function presentUser({ user, factors, roles }: UserAccount): GoTrueUser {
  const createdAt = user.createdAt.toISOString();
  const updatedAt = user.updatedAt.toISOString();
  return {
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: iso(user.emailConfirmedAt),
    confirmed_at: iso(user.emailConfirmedAt),
    phone: '',
    confirmation_sent_at: iso(user.confirmationSentAt),
    recovery_sent_at: iso(user.recoverySentAt),
    new_email: user.newEmail ?? undefined,
    email_change_sent_at: iso(user.emailChangeSentAt),
    last_sign_in_at: iso(user.lastSignInAt),
    app_metadata: appMetadataOf(roles),
    user_metadata: user.userMetadata,
    // Only e-mail sign-in exists, so the single identity mirrors the account itself.
    identities: [
      {
        identity_id: user.id,
        id: user.id,
        user_id: user.id,
        identity_data: {
          email: user.email,
          email_verified: user.emailConfirmedAt !== null,
          phone_verified: false,
          sub: user.id,
        },
        provider: 'email',
        email: user.email,
        last_sign_in_at: iso(user.lastSignInAt),
        created_at: createdAt,
        updated_at: updatedAt,
      },
    ],
    factors:
      factors.length > 0
        ? factors.map((factor) => ({
            id: factor.id,
            friendly_name: factor.friendlyName ?? undefined,
            factor_type: factor.factorType,
            status: factor.status,
            created_at: factor.createdAt.toISOString(),
            updated_at: factor.updatedAt.toISOString(),
            last_challenged_at: iso(factor.lastChallengedAt),
          }))
        : undefined,
    created_at: createdAt,
    updated_at: updatedAt,
    is_anonymous: false,
  };
}

/**
 * A just-created account as the sign-up answers it: confirmation sent, nothing else happened yet.
 * Built from the sign-up's own input, so the answer for an address that already has an account
 * (a fresh id, the same input) cannot be told apart from it.
 */
export function presentNewUser(user: {
  id: string;
  email: string;
  userMetadata: Record<string, unknown>;
  createdAt: Date;
}): GoTrueUser {
  return presentUser({
    user: {
      ...user,
      passwordHash: null,
      emailConfirmedAt: null,
      confirmationSentAt: user.createdAt,
      recoverySentAt: null,
      newEmail: null,
      emailChangeSentAt: null,
      reauthenticationSentAt: null,
      lastSignInAt: null,
      updatedAt: user.createdAt,
    },
    factors: [],
    roles: [],
  });
}
