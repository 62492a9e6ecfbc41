import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthDeps } from '../../auth/auth-deps.js';
import { type AuthError, isAuthError } from '../../auth/auth-error.js';
import { finishOAuthFlow, type OAuthResult } from '../../auth/finish-oauth-flow.js';
import { startOAuthFlow } from '../../auth/start-oauth-flow.js';
import { clientInfoOf } from './client-info.js';
import { identityLinkCookie, oauthStateCookie, oauthStateOf } from './oauth-cookies.js';

const param = (max: number) => z.string().max(max).optional();

/**
 * `GET /authorize?provider=google` and `GET /callback`: sign-in with Google as GoTrue does it. The
 * callback sends the browser back to `redirect_to` with the session in the fragment (implicit flow),
 * with `?code=` for a client that sent a PKCE challenge, or with GoTrue's `#error=…` fields.
 */
export function oauthRoutes(app: FastifyInstance, deps: AuthDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/authorize',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({
          provider: z.string().min(1).max(64),
          redirect_to: param(2048),
          scopes: param(512),
          code_challenge: param(256),
          code_challenge_method: param(16),
          skip_http_redirect: z.enum(['true', 'false']).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { query } = request;
      const flow = await startOAuthFlow(
        deps,
        {
          provider: query.provider,
          redirectTo: query.redirect_to,
          codeChallenge: query.code_challenge,
          codeChallengeMethod: query.code_challenge_method,
        },
        clientInfoOf(request),
      );
      reply
        .header('Cache-Control', 'no-store')
        .header('set-cookie', oauthStateCookie(deps.config.publicUrl, request, flow.state));
      if (query.skip_http_redirect === 'true') return { url: flow.authorizationUrl };
      return reply.redirect(flow.authorizationUrl, 302);
    },
  );

  routes.get(
    '/callback',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({
          state: param(512),
          code: param(2048),
          error: param(256),
          error_description: param(1024),
        }),
      },
    },
    async (request, reply) => {
      // Tokens or codes travel in the redirect; nothing on the way may keep or forward them.
      reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
      const cookies = [oauthStateCookie(deps.config.publicUrl, request, null)];
      const rawQuery = request.raw.url?.split('?')[1] ?? '';
      try {
        const { result, redirectTo } = await finishOAuthFlow(
          deps,
          { query: rawQuery, browserState: oauthStateOf(request) },
          clientInfoOf(request),
        );
        if (result.kind === 'link_required') {
          cookies.push(identityLinkCookie(deps.config.publicUrl, request, result.linkToken));
        }
        return redirectWith(request, reply, cookies, new URL(redirectTo), result);
      } catch (error) {
        if (!isAuthError(error)) throw error;
        return redirectWith(request, reply, cookies, new URL(deps.config.publicUrl), {
          kind: 'refused',
          error,
        });
      }
    },
  );
}

function redirectWith(
  request: FastifyRequest,
  reply: FastifyReply,
  cookies: string[],
  target: URL,
  result: OAuthResult,
): FastifyReply {
  if (result.kind === 'session') {
    const { session } = result;
    target.hash = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: session.token_type,
    }).toString();
  } else if (result.kind === 'code') {
    target.searchParams.set('code', result.code);
  } else {
    target.hash = errorFragment(result.error);
    request.log.info({ code: result.error.code, cause: result.error.cause }, 'sign-in with Google refused');
  }
  return reply.header('set-cookie', cookies).redirect(target.toString(), 303);
}

/** GoTrue's error redirect, which `@supabase/auth-js` reports as an AuthImplicitGrantRedirectError. */
function errorFragment(error: AuthError): string {
  return new URLSearchParams({
    error: error.status === 400 ? 'invalid_request' : 'access_denied',
    error_code: error.code,
    error_description: error.message,
  }).toString();
}
