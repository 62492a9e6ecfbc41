import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { validationFailed } from '../../auth/auth-error.js';
import { maximumPasswordLength } from '../../auth/password-policy.js';
import { refreshSession } from '../../auth/refresh-session.js';
import { signInWithPassword } from '../../auth/sign-in-with-password.js';
import { clientInfoOf } from './client-info.js';
import { deviceTokensOf, setDeviceCookie } from './device-cookie.js';
import { requireEmail } from './require-email.js';
import { sessionSchema } from './schemas.js';

const tokenBodySchema = z.object({
  email: z.string().max(254).optional(),
  phone: z.string().max(32).optional(),
  password: z.string().max(maximumPasswordLength).optional(),
  refresh_token: z.string().max(512).optional(),
});

/** `POST /token`: the password grant signs in, the refresh-token grant renews a session. */
export function tokenRoutes(app: FastifyInstance, deps: AuthDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/token',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({ grant_type: z.enum(['password', 'refresh_token']) }),
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
      const email = requireEmail(body);
      if (!body.password) throw validationFailed('password required');
      const { session, deviceToken } = await signInWithPassword(
        deps,
        { email, password: body.password, deviceTokens: deviceTokensOf(request) },
        client,
      );
      setDeviceCookie(request, reply, deps.config.publicUrl, deviceToken);
      return session;
    },
  );
}
