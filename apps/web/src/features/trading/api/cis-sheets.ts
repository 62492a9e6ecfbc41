import type { CisSheet } from '@covenant/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** `GET /api/v1/cis`: the caller's Customer Information Sheets, newest first. */
export function getCisSheets(api: ApiClient): Promise<CisSheet[]> {
  return api.get<{ data: CisSheet[] }>('/cis').then((page) => page.data);
}

export function getCisSheetsQueryOptions(api: ApiClient, userId: string | undefined) {
  return queryOptions({
    queryKey: ['cis', userId],
    queryFn: () => getCisSheets(api),
    enabled: Boolean(userId),
  });
}

export function useCisSheets() {
  const api = useApiClient();
  const { user } = useAuth();
  return useQuery(getCisSheetsQueryOptions(api, user?.id));
}
