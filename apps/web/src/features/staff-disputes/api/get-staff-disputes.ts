import type { DisputeStatus, StaffDisputeSummary } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, ApiError, useApiClient } from '@/lib/api-client.js';

export function getStaffDisputes(api: ApiClient, status: DisputeStatus | '') {
  return api.get<{ data: StaffDisputeSummary[] }>('/staff/disputes', { query: { status } });
}

export function getStaffDisputesQueryOptions(api: ApiClient, status: DisputeStatus | '') {
  return queryOptions({
    queryKey: ['staff-disputes', status],
    queryFn: () => getStaffDisputes(api, status),
    // A 403 is the answer (no mediator role, or no second factor): asking again cannot change it.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 403) && failures < 1,
  });
}

/** The mediators' queue: open disputes first, oldest first. */
export function useStaffDisputes(status: DisputeStatus | '') {
  const api = useApiClient();
  return useQuery(getStaffDisputesQueryOptions(api, status));
}
