import type { AuthenticatorAssuranceLevels, Session } from '@supabase/auth-js';
import { useMemo } from 'react';
import { useAuth } from '@/lib/auth.js';

export interface AssuranceLevel {
  /** The level of the session: `aal2` once a TOTP code was verified in it. */
  currentLevel: AuthenticatorAssuranceLevels | null;
  /** The level it could reach: `aal2` when the user has a verified factor. */
  nextLevel: AuthenticatorAssuranceLevels | null;
}

/**
 * Read from the session the client holds (the access token's `aal` claim, the user's factors), as
 * `mfa.getAuthenticatorAssuranceLevel` does, but without asking for the session again: that call
 * refreshes a token close to expiry, and a new token would ask again, round after round.
 */
export function assuranceLevelOf(session: Session | null): AssuranceLevel {
  if (!session) return { currentLevel: null, nextLevel: null };
  const hasVerifiedFactor = (session.user.factors ?? []).some((factor) => factor.status === 'verified');
  return {
    currentLevel: tokenAal(session.access_token),
    nextLevel: hasVerifiedFactor ? 'aal2' : 'aal1',
  };
}

function tokenAal(accessToken: string): AuthenticatorAssuranceLevels {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims: unknown = JSON.parse(json);
    const aal = typeof claims === 'object' && claims !== null && 'aal' in claims ? claims.aal : undefined;
    return aal === 'aal2' ? 'aal2' : 'aal1';
  } catch {
    return 'aal1';
  }
}

/** The signed-in session's assurance level; it follows the session as the client replaces it. */
export function useAssuranceLevel(): AssuranceLevel {
  const { session } = useAuth();
  return useMemo(() => assuranceLevelOf(session), [session]);
}
