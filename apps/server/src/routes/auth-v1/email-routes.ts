import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { AuthError } from '../../auth/auth-error.js';
import { requestPasswordRecovery } from '../../auth/request-password-recovery.js';
import { resendVerification } from '../../auth/resend-verification.js';
import { sendEmailOtp } from '../../auth/send-email-otp.js';
import { userMetadataSchema } from '../../auth/user-metadata.js';
import { clientInfoOf } from './client-info.js';
import { refusePkce } from './refuse-pkce.js';
import { requireEmail } from './require-email.js';
import { emptySchema, redirectQuerySchema } from './schemas.js';

/** Endpoints that e-mail a link or code: password recovery, sign-in code, resending a confirmation. */
export function emailRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/recover',
    {
      config: { access: 'public' },
      schema: {
        querystring: redirectQuerySchema,
        body: z.object({ email: z.string().max(254), code_challenge: z.string().nullish() }),
        response: { 200: emptySchema },
      },
    },
    async (request) => {
      refusePkce(request.body);
      await requestPasswordRecovery(
        deps,
        { email: requireEmail(request.body), redirectTo: request.query.redirect_to },
        clientInfoOf(request),
      );
      return {};
    },
  );

  routes.post(
    '/otp',
    {
      config: { access: 'public' },
      schema: {
        querystring: redirectQuerySchema,
        body: z.object({
          email: z.string().max(254).optional(),
          phone: z.string().max(32).optional(),
          create_user: z.boolean().default(true),
          data: userMetadataSchema.optional(),
          code_challenge: z.string().nullish(),
        }),
        response: { 200: emptySchema },
      },
    },
    async (request) => {
      const { body } = request;
      const email = requireEmail(body);
      refusePkce(body);
      await sendEmailOtp(
        deps,
        {
          email,
          createUser: body.create_user,
          metadata: body.data ?? {},
          redirectTo: request.query.redirect_to,
        },
        clientInfoOf(request),
      );
      return {};
    },
  );

  routes.post(
    '/resend',
    {
      config: { access: 'public' },
      schema: {
        querystring: redirectQuerySchema,
        body: z.object({
          type: z.enum(['signup', 'email_change', 'sms', 'phone_change']),
          email: z.string().max(254).optional(),
          phone: z.string().max(32).optional(),
          code_challenge: z.string().nullish(),
        }),
        response: { 200: emptySchema },
      },
    },
    async (request) => {
      const { body } = request;
      if (body.type === 'sms' || body.type === 'phone_change') {
        throw new AuthError(422, 'phone_provider_disabled', 'Phone sign-in is not enabled');
      }
      const email = requireEmail(body);
      refusePkce(body);
      await resendVerification(
        deps,
        { type: body.type, email, redirectTo: request.query.redirect_to },
        clientInfoOf(request),
      );
      return {};
    },
  );
}
