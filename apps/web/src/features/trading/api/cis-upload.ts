import type { CisForm, CisSheet } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

export type CisUpload = { form: CisForm; pdf: File | null };

/**
 * `POST /api/v1/cis`: JSON when there is no PDF; with one, multipart/form-data with the form's
 * fields (list fields repeated, numbers as decimal digits) and the file as `file`.
 */
export function uploadCisSheet(api: ApiClient, { form, pdf }: CisUpload): Promise<CisSheet> {
  const idempotencyKey = crypto.randomUUID();
  if (!pdf) return api.post<CisSheet>('/cis', { body: form, idempotencyKey });
  const body = new FormData();
  for (const [name, value] of Object.entries(form)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, String(item));
  }
  body.append('file', pdf, pdf.name);
  return api.post<CisSheet>('/cis', { body, idempotencyKey });
}

export function useUploadCisSheet() {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upload: CisUpload) => uploadCisSheet(api, upload),
    // The suggested counterparties are matched against the newest sheet.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['cis', user?.id] }),
        queryClient.invalidateQueries({ queryKey: ['partner-matches', user?.id] }),
      ]),
  });
}
