import { useQuery } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

/** A document of a submission, decrypted by the server; the Bearer header rules out a plain link. */
export function getKycDocument(api: ApiClient, submissionId: string, documentId: string): Promise<Blob> {
  return api.get<Blob>(`/staff/kyc/${submissionId}/documents/${documentId}`, { as: 'blob' });
}

export function useKycDocument(submissionId: string, documentId: string | undefined) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['staff-kyc-document', submissionId, documentId],
    queryFn: () => getKycDocument(api, submissionId, documentId!),
    enabled: Boolean(documentId),
    // Identity documents stay in memory only while they are looked at.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
