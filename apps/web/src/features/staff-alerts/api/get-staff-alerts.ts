import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** An escrow-engine alert as `GET /staff/alerts` answers it; amounts in `details` are base-unit strings. */
export interface StaffAlert {
  id: string;
  kind: string;
  subject: string;
  message: string;
  details: Record<string, unknown>;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
}

export function getStaffAlerts(api: ApiClient) {
  return api.get<{ data: StaffAlert[] }>('/staff/alerts');
}

export function getStaffAlertsQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['staff-alerts', userId],
    queryFn: () => getStaffAlerts(api),
    enabled: Boolean(userId),
  });
}

/** The engine's open alerts, newest first. */
export function useStaffAlerts() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getStaffAlertsQueryOptions(api, user?.id));
}
