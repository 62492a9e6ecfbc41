import type { FastifyPluginAsync } from 'fastify';
import { createAuthDeps } from '../../auth/create-auth-deps.js';
import { emailRoutes } from './email-routes.js';
import { enforceAuthAccess } from './enforce-auth-access.js';
import { factorRoutes } from './factor-routes.js';
import { apiVersionHeader, handleGoTrueErrors } from './handle-gotrue-errors.js';
import { oauthRoutes } from './oauth-routes.js';
import { serviceRoutes } from './service-routes.js';
import { signupRoutes } from './signup-routes.js';
import { tokenRoutes } from './token-routes.js';
import { userRoutes } from './user-routes.js';
import { verifyRoutes } from './verify-routes.js';

/**
 * The GoTrue-compatible auth API (mounted at /auth/v1), shaped so the official `@supabase/auth-js`
 * client works against it unchanged.
 */
export const authV1Routes: FastifyPluginAsync = async (app) => {
  const deps = createAuthDeps(app);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header(apiVersionHeader.name, apiVersionHeader.value);
    return payload;
  });
  handleGoTrueErrors(app);
  enforceAuthAccess(app, deps);
  for (const routes of [
    serviceRoutes,
    signupRoutes,
    tokenRoutes,
    userRoutes,
    verifyRoutes,
    emailRoutes,
    factorRoutes,
    oauthRoutes,
  ]) {
    routes(app, deps);
  }
};
