import type { ApiClient } from '@/lib/api-client.js';

/** An evidence file, decrypted by the server; the Bearer header rules out a plain link. */
export function getDisputeEvidence(api: ApiClient, disputeId: string, evidenceId: string): Promise<Blob> {
  return api.get<Blob>(
    `/staff/disputes/${encodeURIComponent(disputeId)}/evidence/${encodeURIComponent(evidenceId)}`,
    {
      as: 'blob',
    },
  );
}
