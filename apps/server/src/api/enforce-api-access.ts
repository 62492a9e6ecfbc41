import { AppError } from '@covenant/domain';
import type { FastifyInstance } from 'fastify';
import { refuseWithoutRecentTotp } from '../auth/refuse-without-recent-totp.js';
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
 * caller is established, that holds every route to the access it declares (ADR 013). A sensitive
 * route of a user with a second factor needs a recent TOTP proof (`refuseWithoutRecentFactor`).
 */
export function enforceApiAccess(app: FastifyInstance): void {
  const windowSeconds = app.config.auth.reauthenticationWindowSeconds;
  app.addHook('onRequest', (request, _reply, done) => {
    const access = request.routeOptions.config.access;
    if (!access || access === 'public') return done();
    const principal = request.principal;
    if (!principal) {
      return done(new AppError('UNAUTHORIZED', 'This endpoint requires a Bearer token'));
    }
    const refusal = refuseAccess(principal, access, app.clock(), windowSeconds);
    if (refusal || access !== 'sensitive') return done(refusal ? apiAccessError(refusal) : undefined);
    refuseWithoutRecentFactor(app, principal).then(
      (factorRefusal) => done(factorRefusal ? apiAccessError(factorRefusal) : undefined),
      done,
    );
  });
}

/** A session of a user with a second factor needs a recent TOTP proof too (`refuseWithoutRecentTotp`). */
async function refuseWithoutRecentFactor(
  app: FastifyInstance,
  principal: Principal,
): Promise<AccessRefusal | undefined> {
  if (principal.kind !== 'session') return undefined;
  return refuseWithoutRecentTotp(
    app.database.db,
    principal,
    app.clock(),
    app.config.auth.reauthenticationWindowSeconds,
  );
}

/**
 * For a route sensitive only in some cases (its `sensitiveWhen`): read before the handler's
 * transaction (the factor is read outside it), the check it calls once it knows the case applies. A
 * session must have proved its user within the window (with its TOTP code when the user has a
 * second factor); an API key never may.
 */
export async function recentAuthenticationCheck(
  app: FastifyInstance,
  principal: Principal,
): Promise<() => void> {
  const refusal =
    refuseStaleSession(principal, app.clock(), app.config.auth.reauthenticationWindowSeconds) ??
    (await refuseWithoutRecentFactor(app, principal));
  return () => {
    if (refusal) throw apiAccessError(refusal);
  };
}
