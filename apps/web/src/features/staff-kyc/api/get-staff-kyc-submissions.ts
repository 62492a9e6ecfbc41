import type { StaffKycSubmission } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { KycStatus } from '@/components/kyc-status-badge.js';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

export function getStaffKycSubmissions(api: ApiClient, status: KycStatus | '') {
  return api.get<{ data: StaffKycSubmission[] }>('/staff/kyc', { query: { status } });
}

export function getStaffKycSubmissionsQueryOptions(api: ApiClient, status: KycStatus | '') {
  return queryOptions({
    queryKey: ['staff-kyc', status],
    queryFn: () => getStaffKycSubmissions(api, status),
  });
}

/** The compliance queue; pending requests come oldest first. */
export function useStaffKycSubmissions(status: KycStatus | '') {
  const api = useApiClient();
  return useQuery(getStaffKycSubmissionsQueryOptions(api, status));
}
