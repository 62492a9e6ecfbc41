import { AuthError } from '../../auth/auth-error.js';

/**
 * E-mail links and codes are offered in the implicit flow only (the web app uses it); PKCE exists
 * for sign-in with Google (`/authorize`, `POST /token?grant_type=pkce`). Saying so beats answering a
 * PKCE client's e-mail request in a shape it cannot use.
 */
export function refusePkce(body: { code_challenge?: string | null | undefined }): void {
  if (body.code_challenge) {
    throw new AuthError(
      400,
      'validation_failed',
      'PKCE flow is supported only for sign-in with Google: use the implicit flow for e-mail sign-up, links and codes',
    );
  }
}
