import { AppError } from '@covenant/domain';
import type { FastifyInstance } from 'fastify';
import { type AccessRefusal, accessRefusalMessages, refuseAccess, refuseStaleSession } from './access.js';
import type { Principal } from './principal.js';

/** Where a session proves its user again (ADR 013); the error tells clients. */
export const reauthenticatePath = '/auth/v1/reauthenticate';

/** A refusal of the access rule as the /api/v1 error: FORBIDDEN, or REAUTHENTICATION_NEEDED. */
export function apiAccessError(refusal: AccessRefusal): AppError {
  if (refusal === 'reauthentication_needed') {
    return new AppError('REAUTHENTICATION_NEEDED', accessRefusalMessages[refusal], {
      reauthenticate: reauthenticatePath,
    });
  }
  // A trader on a staff route gets the plain refusal it always got; the others say why.
  if (refusal === 'staff_only') return new AppError('FORBIDDEN', accessRefusalMessages[refusal]);
  return new AppError('FORBIDDEN', accessRefusalMessages[refusal], { reason: refusal });
}

/**
 * The /api/v1 side of the access rule: an onRequest hook of the authenticated scope, after the
 * caller is established, that holds every route to the access it declares (ADR 013).
 */
export function enforceApiAccess(app: FastifyInstance): void {
  const windowSeconds = app.config.auth.reauthenticationWindowSeconds;
  app.addHook('onRequest', (request, _reply, done) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return done();
    if (!request.principal) {
      return done(new AppError('UNAUTHORIZED', 'This endpoint requires a Bearer token'));
    }
    const refusal = refuseAccess(request.principal, access, app.clock(), windowSeconds);
    done(refusal ? apiAccessError(refusal) : undefined);
  });
}

/**
 * For a route sensitive only in some cases (its `sensitiveWhen`): the handler calls this once it
 * knows the case applies. A session must have proved its user within the window; an API key never may.
 */
export function requireRecentAuthentication(app: FastifyInstance, principal: Principal): void {
  const refusal = refuseStaleSession(principal, app.clock(), app.config.auth.reauthenticationWindowSeconds);
  if (refusal) throw apiAccessError(refusal);
}
