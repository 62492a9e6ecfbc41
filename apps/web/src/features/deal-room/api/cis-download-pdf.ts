import type { ApiClient } from '@/lib/api-client.js';

/** `GET /api/v1/deals/{id}/cis/{party}/pdf`: the signed PDF a party attached, as a file to save. */
export function downloadDealCisPdf(api: ApiClient, dealId: string, party: 'buyer' | 'seller'): Promise<Blob> {
  return api.get<Blob>(`/deals/${encodeURIComponent(dealId)}/cis/${party}/pdf`, { as: 'blob' });
}
