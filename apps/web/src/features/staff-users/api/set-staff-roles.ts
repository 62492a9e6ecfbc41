import type { StaffRole, StaffUser } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function setStaffRoles(api: ApiClient, userId: string, roles: StaffRole[]) {
  return api.put<StaffUser>(`/staff/users/${encodeURIComponent(userId)}/roles`, { body: { roles } });
}

/** Replaces a user's staff roles; the user lists are read again afterwards. */
export function useSetStaffRoles() {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, roles }: { userId: string; roles: StaffRole[] }) =>
      setStaffRoles(api, userId, roles),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['staff', user?.id, 'users'] }),
  });
}
