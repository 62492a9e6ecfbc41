import { singleLineText } from '@covenant/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { challengeFactor } from '../../auth/challenge-factor.js';
import { enrollTotpFactor } from '../../auth/enroll-totp-factor.js';
import { unenrollFactor } from '../../auth/unenroll-factor.js';
import { verifyFactor } from '../../auth/verify-factor.js';
import { authCallerOf } from './enforce-auth-access.js';
import { sessionSchema } from './schemas.js';

const factorParamsSchema = z.object({ id: z.uuid() });

/** TOTP multi-factor authentication: enrol, challenge, verify (raising the session to aal2), remove. */
export function factorRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/factors',
    {
      config: { access: 'sensitive' },
      schema: {
        body: z.object({
          factor_type: z.enum(['totp', 'phone', 'webauthn']),
          friendly_name: singleLineText().max(100).optional(),
          issuer: z.string().trim().max(100).optional(),
        }),
        response: {
          200: z.object({
            id: z.string(),
            type: z.literal('totp'),
            friendly_name: z.string().optional(),
            totp: z.object({ qr_code: z.string(), secret: z.string(), uri: z.string() }),
          }),
        },
      },
    },
    async (request) => {
      const caller = authCallerOf(request);
      const { factor_type: factorType, friendly_name: friendlyName, issuer } = request.body;
      return enrollTotpFactor(deps, caller, { factorType, friendlyName, issuer });
    },
  );

  routes.post(
    '/factors/:id/challenge',
    {
      config: { access: 'session' },
      schema: {
        params: factorParamsSchema,
        // auth-js sends its own call parameters along (factorId, channel); none matter for TOTP.
        body: z.object({}).optional(),
        response: { 200: z.object({ id: z.string(), type: z.literal('totp'), expires_at: z.number() }) },
      },
    },
    async (request) => {
      const caller = authCallerOf(request);
      return challengeFactor(deps, caller, request.params.id, request.ip);
    },
  );

  routes.post(
    '/factors/:id/verify',
    {
      config: { access: 'session' },
      schema: {
        params: factorParamsSchema,
        body: z.object({ challenge_id: z.uuid(), code: z.string().max(64) }),
        response: { 200: sessionSchema },
      },
    },
    async (request) => {
      const caller = authCallerOf(request);
      const { challenge_id: challengeId, code } = request.body;
      return verifyFactor(deps, caller, request.params.id, { challengeId, code });
    },
  );

  routes.delete(
    '/factors/:id',
    {
      config: { access: 'sensitive' },
      schema: { params: factorParamsSchema, response: { 200: z.object({ id: z.string() }) } },
    },
    async (request) => {
      const caller = authCallerOf(request);
      return unenrollFactor(deps, caller, request.params.id);
    },
  );
}
