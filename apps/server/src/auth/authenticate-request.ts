import { schema } from '@covenant/db';
import { and, asc, eq } from 'drizzle-orm';
import { errors, jwtVerify } from 'jose';
import type { AuthDeps } from './auth-deps.js';
import { AuthError, noAuthorization, sessionNotFound } from './auth-error.js';
import { accessTokenAudience, accessTokenIssuer } from './issue-access-token.js';

/** Who is calling, as established from a Bearer access token whose session still exists. */
export interface AuthenticatedRequest {
  userId: string;
  sessionId: string;
  email: string;
  aal: 'aal1' | 'aal2';
  /** How and when this session proved the user's identity (from the session, not the token). */
  amr: schema.AuthMethodReference[];
  /** Current staff roles (read from the database, so a removed role stops working at once). */
  roles: schema.UserRole[];
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks an `Authorization: Bearer <access token>` header: signature, issuer, audience, expiry, and
 * that the session was not signed out since. For /auth/v1 and every /api/v1 route.
 */
export async function authenticateRequest(
  deps: Pick<AuthDeps, 'db' | 'signingKey' | 'config' | 'now'>,
  authorization: string | undefined,
): Promise<AuthenticatedRequest> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw noAuthorization();
  const claims = await verifyAccessToken(deps, match[1]!);
  const [session] = await deps.db
    .select({
      id: schema.sessions.id,
      aal: schema.sessions.aal,
      amr: schema.sessions.amr,
      email: schema.users.email,
    })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(and(eq(schema.sessions.id, claims.sessionId), eq(schema.sessions.userId, claims.userId)));
  if (!session) throw sessionNotFound();
  const roles = await deps.db
    .select({ role: schema.userRoles.role })
    .from(schema.userRoles)
    .where(eq(schema.userRoles.userId, claims.userId))
    .orderBy(asc(schema.userRoles.role));
  return {
    userId: claims.userId,
    sessionId: session.id,
    email: session.email,
    aal: session.aal,
    amr: session.amr,
    roles: roles.map((row) => row.role),
  };
}

/** Checks an access token's signature, issuer, audience and expiry (not whether its session still exists). */
export async function verifyAccessToken(
  deps: Pick<AuthDeps, 'signingKey' | 'config' | 'now'>,
  token: string,
): Promise<{ userId: string; sessionId: string }> {
  try {
    const { payload } = await jwtVerify(token, deps.signingKey.publicKey, {
      algorithms: ['ES256'],
      issuer: accessTokenIssuer(deps.config.publicUrl),
      audience: accessTokenAudience,
      currentDate: deps.now(),
      requiredClaims: ['sub', 'exp', 'session_id'],
    });
    const sessionId = payload.session_id;
    if (
      typeof sessionId !== 'string' ||
      !uuidPattern.test(sessionId) ||
      !uuidPattern.test(payload.sub ?? '')
    ) {
      throw new errors.JWTClaimValidationFailed('malformed sub or session_id claim', payload);
    }
    return { userId: payload.sub!, sessionId };
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      throw new AuthError(
        403,
        'bad_jwt',
        'invalid JWT: unable to parse or verify signature, token is expired',
      );
    }
    if (error instanceof errors.JOSEError) {
      throw new AuthError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature');
    }
    throw error;
  }
}
