import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { interactionPolicy } from 'oidc-provider';

/** The Google account the provider signs in next, with the claims Google puts into its ID token. */
export interface TestGoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestOpenIdProvider {
  /** http://127.0.0.1:<port>, the issuer (discovery at /.well-known/openid-configuration). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next sign-in at the provider logs in as (no form: the interaction finishes at once). */
  signInAs(account: TestGoogleAccount): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (panva's oidc-provider) configured like Google: discovery, JWKS, the
 * authorization-code flow with PKCE, the client authenticating with its secret, and `email`,
 * `email_verified`, `given_name`, `family_name` in the ID token. Every authorization request logs in
 * again as the account last given to `signInAs`, or put as JSON to `PUT /test/account` by a test in
 * another process.
 */
export async function startTestOpenIdProvider(options: {
  redirectUris: string[];
  port?: number;
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOpenIdProvider> {
  const clientId = options.clientId ?? 'covenant-test-client';
  const clientSecret = options.clientSecret ?? 'covenant-test-secret';
  const accounts = new Map<string, TestGoogleAccount>();
  let next: TestGoogleAccount | undefined;

  // Listening comes first (the issuer names the port); until the provider exists, requests get 503.
  let dispatch: RequestListener | undefined;
  const server = createServer((request, response) => {
    if (dispatch) dispatch(request, response);
    else response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Each authorization request logs in afresh (as the account the test chose), unless it is the
  // request resuming from that very login.
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check('test_sign_in', 'every test sign-in logs in', (ctx) =>
        ctx.oidc.result?.login
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  // Google signs its ID tokens with RS256; a fresh key per provider, published in its JWKS.
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-rs256', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    jwks: { keys: [signingKey] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // Google puts the profile and e-mail claims into the ID token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['covenant-test-openid-provider'] },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          ...account,
          name: [account.given_name, account.family_name].filter(Boolean).join(' ') || undefined,
        }),
      };
    },
  });
  const handleProvider = provider.callback();

  dispatch = async (request, response) => {
    try {
      const path = request.url?.split('?')[0] ?? '';
      if (path === '/test/account' && request.method === 'PUT') {
        const account = JSON.parse(await bodyOf(request)) as TestGoogleAccount;
        accounts.set(account.sub, account);
        next = account;
        response.writeHead(204).end();
        return;
      }
      if (path.startsWith('/interaction/')) {
        if (!next) throw new Error('no test account to sign in as: call signInAs first');
        const details = await provider.interactionDetails(request, response);
        const grant = new provider.Grant({ accountId: next.sub, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId: next.sub }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      handleProvider(request, response);
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  };

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (account) => {
      accounts.set(account.sub, account);
      next = account;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
