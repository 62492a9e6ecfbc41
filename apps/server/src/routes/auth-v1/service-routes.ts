import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';

/** Public facts about the service: signing keys, enabled providers, liveness. */
export function serviceRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/.well-known/jwks.json',
    {
      config: { access: 'public' },
      schema: { response: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) } },
    },
    async (_request, reply) => {
      // auth-js keeps keys for 10 minutes too; a rotated key is published before it signs.
      reply.header('Cache-Control', 'public, max-age=600');
      return { keys: [deps.signingKey.publicJwk] };
    },
  );

  routes.get(
    '/settings',
    {
      config: { access: 'public' },
      schema: {
        response: {
          200: z.object({
            external: z.record(z.string(), z.boolean()),
            disable_signup: z.boolean(),
            mailer_autoconfirm: z.boolean(),
            phone_autoconfirm: z.boolean(),
            sms_provider: z.string(),
            saml_enabled: z.boolean(),
          }),
        },
      },
    },
    async () => ({
      // E-mail, and Google when configured; the web app shows other providers disabled while they are false.
      external: {
        email: true,
        phone: false,
        google: deps.google !== undefined,
        github: false,
        apple: false,
        azure: false,
      },
      disable_signup: false,
      mailer_autoconfirm: !deps.config.auth.requireEmailConfirmation,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );

  routes.get(
    '/health',
    {
      config: { access: 'public' },
      schema: { response: { 200: z.object({ name: z.string(), description: z.string() }) } },
    },
    async () => ({ name: 'Covenant Auth', description: 'GoTrue-compatible authentication for Covenant' }),
  );
}
