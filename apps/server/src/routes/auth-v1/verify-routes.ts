import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { AuthError, isAuthError, validationFailed } from '../../auth/auth-error.js';
import { parseEmailAddress } from '../../auth/email-address.js';
import { resolveRedirect } from '../../auth/resolve-redirect.js';
import { verificationTypes, verifyOneTimeToken } from '../../auth/verify-one-time-token.js';
import { clientInfoOf } from './client-info.js';
import { sessionSchema } from './schemas.js';

const linkErrorDescriptions: Record<string, string> = {
  otp_expired: 'Email link is invalid or has expired',
};

/** `GET /verify` (the e-mailed link) and `POST /verify` (a code or link token from the client). */
export function verifyRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/verify',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({
          token: z.string().min(1).max(512),
          type: z.enum(verificationTypes),
          redirect_to: z.string().max(2048).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { token, type, redirect_to: requested } = request.query;
      // The tokens travel in the fragment of the redirect; nothing on the way may keep or forward them.
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      try {
        const { session, redirectTo } = await verifyOneTimeToken(
          deps,
          { type, linkToken: token },
          clientInfoOf(request),
        );
        const target = new URL(resolveRedirect(deps.config.publicUrl, requested ?? redirectTo));
        target.hash = new URLSearchParams({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          token_type: session.token_type,
          type,
        }).toString();
        return reply.redirect(target.toString(), 303);
      } catch (error) {
        if (!isAuthError(error)) throw error;
        request.log.info({ code: error.code }, 'verification link refused');
        const target = new URL(resolveRedirect(deps.config.publicUrl, requested));
        target.hash = new URLSearchParams({
          error: 'access_denied',
          error_code: error.code,
          error_description: linkErrorDescriptions[error.code] ?? error.message,
        }).toString();
        return reply.redirect(target.toString(), 303);
      }
    },
  );

  routes.post(
    '/verify',
    {
      config: { access: 'public' },
      schema: {
        body: z.object({
          type: z.enum([...verificationTypes, 'sms', 'phone_change']),
          token_hash: z.string().max(512).optional(),
          token: z.string().max(64).optional(),
          email: z.string().max(254).optional(),
          phone: z.string().max(32).optional(),
        }),
        response: { 200: sessionSchema },
      },
    },
    async (request) => {
      const { type, token_hash: linkToken, token: code, email, phone } = request.body;
      if (type === 'sms' || type === 'phone_change' || phone) {
        throw new AuthError(422, 'phone_provider_disabled', 'Phone sign-in is not enabled');
      }
      const client = clientInfoOf(request);
      if (linkToken) return (await verifyOneTimeToken(deps, { type, linkToken }, client)).session;
      if (!email || !code)
        throw validationFailed('Verification requires a token_hash, or an email and a token');
      return (await verifyOneTimeToken(deps, { type, email: parseEmailAddress(email), code }, client))
        .session;
    },
  );
}
