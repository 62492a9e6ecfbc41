import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type AccessRefusal,
  accessRefusalMessages,
  lastAuthenticationOf,
  refuseAccess,
} from '../../api/access.js';
import { apiKeyPrefix } from '../../api/api-key-token.js';
import { sessionScopes } from '../../api/principal.js';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { AuthError, noAuthorization } from '../../auth/auth-error.js';
import { type AuthenticatedRequest, authenticateRequest } from '../../auth/authenticate-request.js';
import { refuseWithoutRecentTotp } from '../../auth/refuse-without-recent-totp.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller of a /auth/v1 route declared other than public. */
    authCaller: AuthenticatedRequest | null;
  }
}

/** A refusal of the access rule in GoTrue's error shape; `reauthentication_needed` is GoTrue's own code. */
export function authAccessError(refusal: AccessRefusal): AuthError {
  const status = refusal === 'reauthentication_needed' ? 401 : 403;
  return new AuthError(status, refusal, accessRefusalMessages[refusal]);
}

/**
 * The /auth/v1 side of the access rule (ADR 013): every route declared other than public gets its
 * caller from a session access token here — an API key is refused by name — and a `sensitive` one
 * needs a session that proved its user within the reauthentication window (with a TOTP code, when
 * the user has a second factor).
 */
export function enforceAuthAccess(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('authCaller', null);
  // After validation, as before: malformed input keeps its 400 whoever sends it.
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return;
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (token?.startsWith(apiKeyPrefix)) throw authAccessError('api_key_not_allowed');
    const caller = await authenticateRequest(deps, request.headers.authorization);
    const refusal = refuseAccess(
      {
        kind: 'session',
        scopes: sessionScopes,
        roles: caller.roles,
        authenticatedAt: lastAuthenticationOf(caller.amr),
      },
      access,
      deps.now(),
      deps.config.auth.reauthenticationWindowSeconds,
    );
    if (refusal) throw authAccessError(refusal);
    // With a second factor, a sensitive action needs a recent TOTP proof, not any proof.
    if (access === 'sensitive') {
      const stale = await refuseWithoutRecentTotp(
        deps.db,
        caller,
        deps.now(),
        deps.config.auth.reauthenticationWindowSeconds,
      );
      if (stale) throw authAccessError(stale);
    }
    request.authCaller = caller;
  });
}

/** The caller the access hook established for this route. */
export function authCallerOf(request: FastifyRequest): AuthenticatedRequest {
  if (!request.authCaller) throw noAuthorization();
  return request.authCaller;
}
