import { startTestOpenIdProvider } from './start-test-openid-provider.js';

// The local OpenID provider for the browser tests, in its own process (e2e/playwright.config.ts starts
// it): OPENID_PROVIDER_PORT, and OPENID_REDIRECT_URIS (comma-separated) of the servers that use it.
// A spec chooses who signs in next with `PUT /test/account`.
const provider = await startTestOpenIdProvider({
  port: Number(process.env.OPENID_PROVIDER_PORT ?? 3190),
  redirectUris: (process.env.OPENID_REDIRECT_URIS ?? '').split(',').filter(Boolean),
  clientId: process.env.OPENID_CLIENT_ID,
  clientSecret: process.env.OPENID_CLIENT_SECRET,
});
console.info(`test OpenID provider listening at ${provider.issuer}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void provider.close().then(() => process.exit(0));
  });
}
