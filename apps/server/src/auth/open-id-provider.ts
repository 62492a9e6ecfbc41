import * as openid from 'openid-client';
import type { GoogleConfig } from '../config.js';
import { AuthError } from './auth-error.js';

/** The OpenID provider behind "Continue with Google", discovered from its issuer on first use. */
export interface OpenIdProvider {
  /** The provider's metadata and our client, fetched once and kept (keys are refreshed by the library). */
  configuration(): Promise<openid.Configuration>;
}

/**
 * Reads the issuer's discovery document the first time a sign-in needs it; a failed read is not
 * kept, so the next sign-in tries again. Plain http issuers are allowed only outside production
 * (config refuses them there): the tests' local provider listens on loopback.
 */
export function createOpenIdProvider(config: GoogleConfig): OpenIdProvider {
  let discovered: Promise<openid.Configuration> | undefined;
  const insecure = config.issuerUrl.startsWith('http:');
  return {
    configuration() {
      discovered ??= openid
        .discovery(
          new URL(config.issuerUrl),
          config.clientId,
          config.clientSecret,
          undefined,
          insecure ? { execute: [openid.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
        )
        .catch((error: unknown) => {
          discovered = undefined;
          throw new AuthError(502, 'provider_unavailable', 'Google sign-in is unavailable at the moment', {
            cause: error,
          });
        });
      return discovered;
    },
  };
}
