import type { KycApplication, KycSubmission } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';

export type KycRequest = { application: KycApplication; documents: File[] };

/** `POST /api/v1/kyc` as multipart/form-data: the details as fields, each file as `documents`. */
export function submitKyc(api: ApiClient, { application, documents }: KycRequest): Promise<KycSubmission> {
  const form = new FormData();
  for (const [name, value] of Object.entries(application)) {
    if (value !== null && value !== undefined) form.append(name, value);
  }
  for (const document of documents) form.append('documents', document, document.name);
  return api.post<KycSubmission>('/kyc', { body: form });
}

// The profile's status changes with a submission, so the hero badges are reloaded too.
export function useSubmitKyc() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: KycRequest) => submitKyc(api, request),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['kyc'] }),
        queryClient.invalidateQueries({ queryKey: ['profile'] }),
      ]);
    },
  });
}
