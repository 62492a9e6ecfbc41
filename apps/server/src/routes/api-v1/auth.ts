import { AppError, type ErrorCode } from '@covenant/domain';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAuthError } from '../../auth/auth-error.js';
import { createAuthDeps } from '../../auth/create-auth-deps.js';
import { emailAddressSchema } from '../../auth/email-address.js';
import type { SessionResponse } from '../../auth/issue-session-response.js';
import { maximumPasswordLength } from '../../auth/password-policy.js';
import { refreshSession } from '../../auth/refresh-session.js';
import { signInWithPassword } from '../../auth/sign-in-with-password.js';
import { clientInfoOf } from '../auth-v1/client-info.js';
import { deviceTokensOf, setDeviceCookie } from '../auth-v1/device-cookie.js';

const tokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  expires_at: z.number(),
  token_type: z.literal('bearer'),
});

/** The public API's codes for the auth service's refusals; the GoTrue code travels in `details.reason`. */
const apiCodes: Record<string, ErrorCode> = {
  invalid_credentials: 'INVALID_CREDENTIALS',
  email_not_confirmed: 'FORBIDDEN',
  over_request_rate_limit: 'RATE_LIMITED',
  refresh_token_not_found: 'UNAUTHORIZED',
  refresh_token_already_used: 'UNAUTHORIZED',
  validation_failed: 'VALIDATION_FAILED',
  phone_provider_disabled: 'VALIDATION_FAILED',
};

/**
 * `POST /api/v1/auth/login` and `/refresh` (spec §7): the same sign-in and refresh as /auth/v1,
 * answered in the public API's token and error shapes.
 */
export const apiV1AuthRoutes: FastifyPluginAsync = async (app) => {
  const deps = createAuthDeps(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange e-mail and password for an access token and a refresh token',
        description:
          'Wrong passwords slow the next attempts on the account and from the network (up to 4 s); after 20 in 15 minutes the account answers 429 to clients it does not know. A successful login sets a device cookie (HttpOnly): a client that sends it back is judged on its own failures only.',
        body: z.object({ email: emailAddressSchema, password: z.string().min(1).max(maximumPasswordLength) }),
        response: { 200: tokenResponseSchema },
      },
    },
    async (request, reply) =>
      answer(reply, async () => {
        const { session, deviceToken } = await signInWithPassword(
          deps,
          {
            email: request.body.email,
            password: request.body.password,
            deviceTokens: deviceTokensOf(request),
          },
          clientInfoOf(request),
        );
        setDeviceCookie(request, reply, deps.config.publicUrl, deviceToken);
        return session;
      }),
  );

  routes.post(
    '/refresh',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange a refresh token for new tokens (each refresh token works once)',
        body: z.object({ refresh_token: z.string().min(1).max(512) }),
        response: { 200: tokenResponseSchema },
      },
    },
    async (request, reply) =>
      answer(reply, () => refreshSession(deps, request.body.refresh_token, clientInfoOf(request))),
  );
};

async function answer(reply: FastifyReply, issue: () => Promise<SessionResponse>) {
  try {
    const session = await issue();
    return {
      access_token: session.access_token,
      refresh_token: session.refresh_token,
      expires_in: session.expires_in,
      expires_at: session.expires_at,
      token_type: session.token_type,
    };
  } catch (error) {
    if (!isAuthError(error)) throw error;
    if (error.retryAfterSeconds) reply.header('Retry-After', String(error.retryAfterSeconds));
    const code = apiCodes[error.code] ?? (error.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN');
    throw new AppError(code, error.message, { reason: error.code });
  }
}
