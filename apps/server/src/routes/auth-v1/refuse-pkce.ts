import { AuthError } from '../../auth/auth-error.js';

/**
 * The PKCE flow is not offered (the web app uses the implicit flow); saying so beats answering a
 * PKCE client in a shape it cannot use.
 */
export function refusePkce(body: { code_challenge?: string | null | undefined }): void {
  if (body.code_challenge) {
    throw new AuthError(400, 'validation_failed', 'PKCE flow is not supported: use the implicit flow');
  }
}
