import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { validationFailed } from '../../auth/auth-error.js';
import { exchangeAuthCode } from '../../auth/exchange-auth-code.js';
import { maximumPasswordLength } from '../../auth/password-policy.js';
import { refreshSession } from '../../auth/refresh-session.js';
import { signInWithPassword } from '../../auth/sign-in-with-password.js';
import { clientInfoOf } from './client-info.js';
import { deviceTokensOf, setDeviceCookie } from './device-cookie.js';
import { identityLinkCookie, identityLinkTokenOf } from './oauth-cookies.js';
import { requireEmail } from './require-email.js';
import { sessionSchema } from './schemas.js';

const tokenBodySchema = z.object({
  email: z.string().max(254).optional(),
  phone: z.string().max(32).optional(),
  password: z.string().max(maximumPasswordLength).optional(),
  refresh_token: z.string().max(512).optional(),
  auth_code: z.string().max(512).optional(),
  code_verifier: z.string().max(256).optional(),
});

/**
 * `POST /token`: the password grant signs in (and completes a pending Google link of this browser,
 * ADR 023), the refresh-token grant renews a session, the PKCE grant exchanges the code of a sign-in
 * with Google.
 */
export function tokenRoutes(app: FastifyInstance, deps: AuthDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/token',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({ grant_type: z.enum(['password', 'refresh_token', 'pkce']) }),
        body: tokenBodySchema,
        response: { 200: sessionSchema },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const client = clientInfoOf(request);
      if (request.query.grant_type === 'refresh_token') {
        if (!body.refresh_token) throw validationFailed('refresh_token required');
        return refreshSession(deps, body.refresh_token, client);
      }
      if (request.query.grant_type === 'pkce') {
        if (!body.auth_code || !body.code_verifier) {
          throw validationFailed('PKCE grant requires auth_code and code_verifier');
        }
        return exchangeAuthCode(deps, { authCode: body.auth_code, codeVerifier: body.code_verifier }, client);
      }
      const email = requireEmail(body);
      if (!body.password) throw validationFailed('password required');
      const { session, deviceToken, linkedIdentity } = await signInWithPassword(
        deps,
        {
          email,
          password: body.password,
          deviceTokens: deviceTokensOf(request),
          identityLinkToken: identityLinkTokenOf(request),
        },
        client,
      );
      setDeviceCookie(request, reply, deps.config.publicUrl, deviceToken);
      if (linkedIdentity)
        reply.header('set-cookie', identityLinkCookie(deps.config.publicUrl, request, null));
      return session;
    },
  );
}
