import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@/lib/auth.js';

/**
 * The session's assurance level (`aal2` once a TOTP code was verified in it) and the level it could
 * reach (`aal2` when the user has a verified factor). Keyed by the access token, which changes with it.
 */
export function useAssuranceLevel() {
  const { mfa, session } = useAuth();
  return useQuery({
    queryKey: ['auth', session?.user.id, 'aal', session?.access_token],
    queryFn: async () => {
      const { data, error } = await mfa.getAuthenticatorAssuranceLevel();
      if (error) throw error;
      return data;
    },
    enabled: Boolean(session),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
