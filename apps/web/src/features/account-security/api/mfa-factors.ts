import type { Factor } from '@supabase/auth-js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/lib/auth.js';

type Mfa = ReturnType<typeof useAuth>['mfa'];

export async function listMfaFactors(mfa: Mfa): Promise<Factor[]> {
  const { data, error } = await mfa.listFactors();
  if (error) throw error;
  return data.all.filter((factor) => factor.factor_type === 'totp');
}

export function mfaFactorsQueryOptions(mfa: Mfa, userId: string | undefined) {
  return queryOptions({
    queryKey: ['auth', userId, 'mfa-factors'],
    queryFn: () => listMfaFactors(mfa),
    enabled: Boolean(userId),
  });
}

/** The signed-in user's TOTP factors, verified or still being set up. */
export function useMfaFactors() {
  const { mfa, user } = useAuth();
  return useQuery(mfaFactorsQueryOptions(mfa, user?.id));
}
