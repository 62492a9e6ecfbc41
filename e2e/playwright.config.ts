import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
const longSessionPort = port + 1;
/** The server whose access tokens live an hour (tests use it with `test.use({ baseURL: longSessionURL })`). */
export const longSessionURL = `http://localhost:${longSessionPort}`;
const shortReauthenticationPort = port + 2;
/** The server whose sessions must reauthenticate for sensitive actions after 30 s, not 10 minutes. */
export const shortReauthenticationURL = `http://localhost:${shortReauthenticationPort}`;
const openIdProviderPort = port + 3;
/** The local OpenID provider standing in for Google for the first server (`PUT /test/account` picks who signs in). */
export const openIdProviderURL = `http://127.0.0.1:${openIdProviderPort}`;
const openIdClient = { id: 'covenant-e2e', secret: 'covenant-e2e-secret' };

/** The real server on the built SPA, with a fresh embedded database and mailbox of its own. */
function server(serverPort: number, env: Record<string, string>) {
  const dataDir = `e2e/.data/${serverPort}`;
  const url = `http://localhost:${serverPort}`;
  return {
    command: `rm -rf ${dataDir} && node --import tsx apps/server/src/main.ts`,
    cwd: '..',
    url: `${url}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(serverPort),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ...env,
    },
  };
}

/**
 * Browser tests drive the built SPA served by the real server (PGlite in a fresh data directory,
 * e-mail into the local mailbox). Chromium comes from Debian (/usr/bin/chromium): Playwright's own
 * browser download is not available on these machines.
 */
export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list']]
    : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } },
    {
      name: 'phone',
      use: { ...devices['Pixel 7'], channel: undefined },
      grep: /@responsive/,
    },
  ],
  webServer: [
    {
      command: 'node --import tsx apps/server/src/testing/serve-test-openid-provider.ts',
      cwd: '..',
      url: `${openIdProviderURL}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe' as const,
      stderr: 'pipe' as const,
      env: {
        OPENID_PROVIDER_PORT: String(openIdProviderPort),
        OPENID_REDIRECT_URIS: `${baseURL}/auth/v1/callback`,
        OPENID_CLIENT_ID: openIdClient.id,
        OPENID_CLIENT_SECRET: openIdClient.secret,
      },
    },
    server(port, {
      // Short access-token lifetime so the browser's automatic refresh is seen within the test.
      AUTH_JWT_EXPIRY_SECONDS: '60',
      // "Continue with Google" against the local provider above.
      GOOGLE_CLIENT_ID: openIdClient.id,
      GOOGLE_CLIENT_SECRET: openIdClient.secret,
      GOOGLE_ISSUER_URL: openIdProviderURL,
    }),
    // The default one-hour lifetime, for tests where a still-valid access token matters; a regtest
    // block every second, so a Bitcoin deposit confirms within the test (bitcoin-escrow.spec.ts).
    // Its demo buyer and seller trade six deals from two browsers each within a few minutes, which a
    // trader spreads over hours: the hourly API budget is raised so the suite's compression, not the
    // app, does not spend it (the limits themselves: rate-limits.test.ts; ADR 026).
    server(longSessionPort, { BTC_DEVNET_BLOCK_INTERVAL_MS: '1000', API_RATE_LIMIT_STANDARD: '5000' }),
    // A sign-in counts as recent for 30 s only, so a test sees a sensitive action ask for the password.
    server(shortReauthenticationPort, { AUTH_REAUTHENTICATION_WINDOW_SECONDS: '30' }),
  ],
});
