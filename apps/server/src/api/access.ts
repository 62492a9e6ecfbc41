import type { schema } from '@covenant/db';

/**
 * Who may call a route (ADR 013), declared by every /api/v1 and /auth/v1 route in its `config`:
 * - `public`: anyone, signed in or not.
 * - `read`: a signed-in session, or an API key with the `read` scope.
 * - `trade`: a signed-in session, or an API key with the `trade` scope (deal actions).
 * - `session`: a signed-in session only; API keys are refused.
 * - `sensitive`: a signed-in session that proved its user recently (ASVS 3.7.1); never an API key.
 * - `staff`: a signed-in session of a staff member; the route itself checks which role and aal2.
 */
export const accessLevels = ['public', 'read', 'trade', 'session', 'sensitive', 'staff'] as const;
export type Access = (typeof accessLevels)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; a route under /api/v1 or /auth/v1 without one fails the build. */
    access?: Access;
    /** When a `trade` or `session` route needs recent authentication too (said in the API description). */
    sensitiveWhen?: string;
  }
}

/** What the access rule needs to know about a caller of either API. */
export interface AccessCaller {
  kind: 'session' | 'api_key';
  /** An API key's scopes; sessions may do whatever their user may. */
  scopes: readonly schema.ApiKeyScope[];
  roles: readonly schema.UserRole[];
  /** When the session last proved its user (sign-in, reauthentication, TOTP); null for API keys. */
  authenticatedAt: Date | null;
}

/** Why a caller is refused: each becomes a distinct error of the API it called. */
export type AccessRefusal =
  | 'api_key_not_allowed'
  | 'scope_missing'
  | 'staff_only'
  | 'reauthentication_needed';

/**
 * The one rule behind every route's declaration: undefined when `caller` may call a route declared
 * `access`, else why not. A missing caller is the route's own 401, decided before this.
 */
export function refuseAccess(
  caller: AccessCaller,
  access: Exclude<Access, 'public'>,
  now: Date,
  windowSeconds: number,
): AccessRefusal | undefined {
  if (caller.kind === 'api_key') {
    if (access === 'read' || access === 'trade') {
      return caller.scopes.includes(access) ? undefined : 'scope_missing';
    }
    return 'api_key_not_allowed';
  }
  if (access === 'staff' && caller.roles.length === 0) return 'staff_only';
  if (access === 'sensitive') return refuseStaleSession(caller, now, windowSeconds);
  return undefined;
}

/** A session whose last proof of identity is older than the window must reauthenticate. */
export function refuseStaleSession(
  caller: Pick<AccessCaller, 'kind' | 'authenticatedAt'>,
  now: Date,
  windowSeconds: number,
): AccessRefusal | undefined {
  if (caller.kind === 'api_key') return 'api_key_not_allowed';
  const provedAt = caller.authenticatedAt?.getTime() ?? 0;
  return now.getTime() - provedAt > windowSeconds * 1000 ? 'reauthentication_needed' : undefined;
}

/**
 * The latest proof of identity a session's `amr` records. For a user with a verified second factor
 * (`secondFactor`) only a TOTP code counts (at sign-in, by a factor challenge, or with a
 * reauthentication): a password, an e-mailed code or a recovery link alone prove less than the
 * account asks for, or a stolen password would reach every sensitive action (GoTrue, too, asks such
 * a user for aal2 before account changes).
 */
export function lastAuthenticationOf(
  amr: readonly schema.AuthMethodReference[],
  secondFactor = false,
): Date | null {
  const proofs = secondFactor ? amr.filter((entry) => entry.method === 'totp') : amr;
  const latest = Math.max(0, ...proofs.map((entry) => entry.timestamp));
  return latest === 0 ? null : new Date(latest * 1000);
}

/** The messages each refusal carries, the same in both APIs. */
export const accessRefusalMessages: Record<AccessRefusal, string> = {
  api_key_not_allowed: 'This action needs a signed-in session; API keys cannot perform it',
  scope_missing: 'The API key lacks the scope this action needs',
  staff_only: 'This endpoint is open to staff only',
  reauthentication_needed: 'Confirm your password to continue: this action needs a recent sign-in',
};
