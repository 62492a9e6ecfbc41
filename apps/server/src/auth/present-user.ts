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

export type SignInProvider = 'email' | 'google';

/** A way to sign in to the account, as GoTrue lists it in `user.identities`. */
export interface GoTrueIdentity {
  identity_id: string;
  id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: SignInProvider;
  email: string;
  last_sign_in_at?: string;
  created_at: string;
  updated_at: string;
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
  app_metadata: { provider: SignInProvider; providers: SignInProvider[]; roles?: string[] };
  user_metadata: Record<string, unknown>;
  identities: GoTrueIdentity[];
  factors?: GoTrueFactor[];
  created_at: string;
  updated_at: string;
  is_anonymous: false;
}

/** GoTrue's `app_metadata`: the provider the account was created with first, then every provider. */
export function appMetadataOf(account: UserAccount): GoTrueUser['app_metadata'] {
  const providers = providersOf(account);
  const metadata = { provider: providers[0]!, providers };
  return account.roles.length > 0 ? { ...metadata, roles: account.roles } : metadata;
}

/**
 * The account's own address counts as a way to sign in when it has a password, or when nothing else
 * signs it in (an account made by an e-mail code); an account made by Google without a password has
 * only its Google identity.
 */
function hasEmailIdentity({ user, identities }: UserAccount): boolean {
  return user.passwordHash !== null || identities.length === 0;
}

function providersOf(account: UserAccount): SignInProvider[] {
  const providers: SignInProvider[] = hasEmailIdentity(account) ? ['email'] : [];
  for (const identity of account.identities) {
    if (!providers.includes(identity.provider)) providers.push(identity.provider);
  }
  return providers;
}

const iso = (date: Date | null | undefined) => date?.toISOString();

export function presentUser(account: UserAccount): GoTrueUser {
  const { user, factors } = account;
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
    app_metadata: appMetadataOf(account),
    user_metadata: user.userMetadata,
    identities: [
      // The e-mail identity mirrors the account itself (its id is the user's, as GoTrue's is).
      ...(hasEmailIdentity(account) ? [emailIdentityOf(account)] : []),
      ...account.identities.map(
        (identity): GoTrueIdentity => ({
          identity_id: identity.id,
          id: identity.providerId,
          user_id: user.id,
          identity_data: identity.identityData,
          provider: identity.provider,
          email: identity.email,
          last_sign_in_at: iso(identity.lastSignInAt),
          created_at: identity.createdAt.toISOString(),
          updated_at: identity.updatedAt.toISOString(),
        }),
      ),
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

function emailIdentityOf({ user }: UserAccount): GoTrueIdentity {
  return {
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
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
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
    identities: [],
  });
}
