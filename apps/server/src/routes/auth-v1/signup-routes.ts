import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { maximumPasswordLength } from '../../auth/password-policy.js';
import { signUpUser } from '../../auth/sign-up-user.js';
import { userMetadataSchema } from '../../auth/user-metadata.js';
import { clientInfoOf } from './client-info.js';
import { refusePkce } from './refuse-pkce.js';
import { requireEmail } from './require-email.js';
import { redirectQuerySchema, sessionSchema, userSchema } from './schemas.js';

const signupBodySchema = z.object({
  email: z.string().max(254).optional(),
  phone: z.string().max(32).optional(),
  password: z.string().max(maximumPasswordLength),
  data: userMetadataSchema.optional(),
  code_challenge: z.string().nullish(),
});

export function signupRoutes(app: FastifyInstance, deps: AuthDeps): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/signup',
    {
      config: { access: 'public' },
      schema: {
        querystring: redirectQuerySchema,
        body: signupBodySchema,
        response: { 200: z.union([sessionSchema, userSchema]) },
      },
    },
    async (request) => {
      const email = requireEmail(request.body);
      refusePkce(request.body);
      return signUpUser(
        deps,
        {
          email,
          password: request.body.password,
          metadata: request.body.data ?? {},
          redirectTo: request.query.redirect_to,
        },
        clientInfoOf(request),
      );
    },
  );
}
