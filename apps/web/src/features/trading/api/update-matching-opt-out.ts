import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import type { Profile } from './get-profile.js';

/** `PATCH /api/v1/user/profile {matching_opt_out}`: whether other traders see the caller among suggestions. */
export function updateMatchingOptOut(api: ApiClient, optOut: boolean): Promise<Profile> {
  return api.patch<Profile>('/user/profile', { body: { matching_opt_out: optOut } });
}

export function useUpdateMatchingOptOut() {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (optOut: boolean) => updateMatchingOptOut(api, optOut),
    onSuccess: (profile) => queryClient.setQueryData(['profile', user?.id], profile),
  });
}
