import type { KycSubmission } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export function getKycSubmissions(api: ApiClient): Promise<{ data: KycSubmission[] }> {
  return api.get<{ data: KycSubmission[] }>('/kyc');
}

export function getKycSubmissionsQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['kyc', userId],
    queryFn: () => getKycSubmissions(api),
    enabled: Boolean(userId),
  });
}

/** The signed-in trader's verification requests, newest first. */
export function useKycSubmissions() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getKycSubmissionsQueryOptions(api, user?.id));
}
