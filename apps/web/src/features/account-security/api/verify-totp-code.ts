import type { useAuth } from '@/lib/auth.js';

type Mfa = ReturnType<typeof useAuth>['mfa'];

/**
 * Checks a 6-digit code of `factorId` (a new factor becomes verified); the session becomes aal2 and
 * the auth client stores its new tokens. Throws the auth server's error (a wrong code, say).
 */
export async function verifyTotpCode(mfa: Mfa, factorId: string, code: string): Promise<void> {
  const { error } = await mfa.challengeAndVerify({ factorId, code });
  if (error) throw error;
}
