import { generate } from 'otplib';
import { demoPassword, demoStaffTotpSecret } from '../seed/seed-demo-data.js';
import { memoryAuthClient } from './memory-auth-client.js';

/**
 * Signs a seeded demo staff account in on a running server as the console does: password, then a
 * TOTP code from the demo authenticator. Returns the aal2 access token. A code is accepted once per
 * factor, so two calls for one account need 30 seconds between them.
 */
export async function signInStaffOverHttp(url: string, email: string): Promise<string> {
  const client = memoryAuthClient(url);
  const signedIn = await client.signInWithPassword({ email, password: demoPassword });
  if (signedIn.error) throw signedIn.error;
  const factor = (await client.mfa.listFactors()).data?.totp[0];
  if (!factor) throw new Error(`${email} has no verified TOTP factor`);
  const code = await generate({ secret: demoStaffTotpSecret });
  const verified = await client.mfa.challengeAndVerify({ factorId: factor.id, code });
  if (verified.error) throw verified.error;
  return verified.data.access_token;
}
