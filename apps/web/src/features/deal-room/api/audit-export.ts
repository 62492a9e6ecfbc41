import type { ApiClient } from '@/lib/api-client.js';

/** `GET /api/v1/deals/{id}/audit/export`: the trail as the file `npx covenant verify-audit` checks. */
export function downloadDealAuditExport(api: ApiClient, dealId: string): Promise<Blob> {
  return api.get<Blob>(`/deals/${encodeURIComponent(dealId)}/audit/export`, { as: 'blob' });
}

/** The name the server gives the file in its Content-Disposition. */
export function dealAuditExportFileName(dealId: string): string {
  return `deal-${dealId}-audit.json`;
}
