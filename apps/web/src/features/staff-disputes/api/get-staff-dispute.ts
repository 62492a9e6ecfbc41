import type { StaffDisputeCase } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, ApiError, useApiClient } from '@/lib/api-client.js';

export function getStaffDispute(api: ApiClient, id: string) {
  return api.get<StaffDisputeCase>(`/staff/disputes/${encodeURIComponent(id)}`);
}

export function getStaffDisputeQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: ['staff-disputes', 'case', id],
    queryFn: () => getStaffDispute(api, id),
    // 403 and 404 are answers, not hiccups: asking again cannot change them.
    retry: (failures, error) =>
      !(error instanceof ApiError && [403, 404].includes(error.status)) && failures < 1,
  });
}

/** A case with everything on it: deal, CIS, terms versions, messages, evidence, the verified audit trail. */
export function useStaffDispute(id: string) {
  const api = useApiClient();
  return useQuery(getStaffDisputeQueryOptions(api, id));
}
