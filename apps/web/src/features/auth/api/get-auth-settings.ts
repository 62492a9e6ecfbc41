import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

// GoTrue's public settings; only the providers the sign-in pages offer are read.
const authSettingsSchema = z.object({
  external: z.object({ google: z.boolean().default(false) }),
});

export type AuthSettings = z.infer<typeof authSettingsSchema>;

export async function getAuthSettings(): Promise<AuthSettings> {
  const response = await fetch(`${window.location.origin}/auth/v1/settings`);
  if (!response.ok) throw new Error(`Loading the auth settings failed with status ${response.status}`);
  return authSettingsSchema.parse(await response.json());
}

export const getAuthSettingsQueryOptions = () =>
  queryOptions({
    queryKey: ['auth-settings'],
    queryFn: getAuthSettings,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useAuthSettings() {
  return useQuery(getAuthSettingsQueryOptions());
}
