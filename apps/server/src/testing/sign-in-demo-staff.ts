import { generate } from 'otplib';
import type { AuthTestServer } from '../routes/auth-v1/start-auth-test-server.js';
import { demoPassword, demoStaffTotpSecret } from '../seed/seed-demo-data.js';

/**
 * Signs a seeded demo staff account in the way the console does: password (aal1), then a TOTP code
 * from the demo authenticator (aal2). Returns the aal2 access token, or the aal1 one with `aal1Only`.
 */
export async function signInDemoStaff(
  server: AuthTestServer,
  email: string,
  options: { aal1Only?: boolean } = {},
): Promise<string> {
  const client = server.createClient();
  const signedIn = await client.signInWithPassword({ email, password: demoPassword });
  if (signedIn.error) throw signedIn.error;
  if (options.aal1Only) return signedIn.data.session.access_token;
  const factors = await client.mfa.listFactors();
  const factor = factors.data?.totp[0];
  if (!factor) throw new Error(`${email} has no verified TOTP factor`);
  // A code is accepted once per factor: each sign-in moves the server's clock to a fresh 30-second step.
  server.advanceClock(30);
  const code = await generate({
    secret: demoStaffTotpSecret,
    epoch: Math.floor(server.now().getTime() / 1000),
  });
  const verified = await client.mfa.challengeAndVerify({ factorId: factor.id, code });
  if (verified.error) throw verified.error;
  return verified.data.access_token;
}
