import type { FastifyInstance, RouteOptions } from 'fastify';
import { type Access, accessLevels } from './access.js';

/** The prefixes whose every route must say who may call it. */
const declaredPrefixes = ['/api/v1', '/auth/v1'];

function routeName(route: Pick<RouteOptions, 'method' | 'url'>): string {
  return `${[route.method].flat().join(',')} ${route.url}`;
}

/** The access a route declares; throws when it declares none, so the app cannot be built without it. */
export function declaredAccessOf(route: RouteOptions): Access {
  const access = route.config?.access;
  if (!access || !accessLevels.includes(access)) {
    throw new Error(
      `${routeName(route)} declares no access: add config.access (${accessLevels.join(' | ')}), see ADR 013`,
    );
  }
  return access;
}

/**
 * Makes every /api/v1 and /auth/v1 route declare its access (ADR 013) before the app is built: a route
 * registered without one throws here, so it cannot be forgotten. The declaration is published in the
 * API description as `x-access` (and `x-sensitive-when` for routes sensitive only in some cases).
 * Register before the routes.
 */
export function requireAccessDeclarations(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!declaredPrefixes.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`)))
      return;
    const access = declaredAccessOf(route);
    const sensitiveWhen = route.config?.sensitiveWhen;
    // OpenAPI extensions, which @fastify/swagger copies into the operation.
    const extensions: Record<string, string> = { 'x-access': access };
    if (sensitiveWhen) extensions['x-sensitive-when'] = sensitiveWhen;
    route.schema = { ...route.schema, ...extensions };
  });
}

/** Refuses, at build time, a route of a scope that declares an access the scope cannot give. */
export function restrictDeclaredAccess(
  app: FastifyInstance,
  allowed: readonly Access[],
  scope: string,
): void {
  app.addHook('onRoute', (route) => {
    const access = declaredAccessOf(route);
    if (!allowed.includes(access)) {
      throw new Error(
        `${routeName(route)} declares access '${access}', which the ${scope} routes cannot give`,
      );
    }
  });
}
