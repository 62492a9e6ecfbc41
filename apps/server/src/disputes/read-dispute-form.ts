import { AppError, disputeEvidenceRules, type OpenDispute, openDisputeSchema } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import { readUploadForm } from '../files/read-upload-form.js';
import type { EvidenceUpload } from './store-dispute-evidence.js';

/**
 * Reads a dispute's multipart form: the `reason` field and the `evidence` files, each read whole up
 * to 10 MB. Any other file field is refused; other text fields are ignored.
 */
export function readDisputeForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; uploads: EvidenceUpload[] }> {
  return readUploadForm(request, {
    fileField: 'evidence',
    textFields: ['reason'],
    maxFiles: disputeEvidenceRules.maxFiles,
    maxBytes: disputeEvidenceRules.maxBytes,
    // 4000 characters of up to 4 UTF-8 bytes each, with room for whitespace that is trimmed.
    fieldSize: 32_000,
    tooLarge: 'Each evidence file must be at most 10 MB',
    tooMany: 'Attach at most 5 evidence files',
    fallbackName: 'evidence',
  });
}

/** The reason of a new dispute, from the multipart form or a JSON body, checked by the shared schema. */
export function parseOpenDispute(body: unknown): OpenDispute {
  const parsed = openDisputeSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: `/${issue.path.join('/')}`,
      message: issue.message,
    }));
    throw new AppError('VALIDATION_FAILED', 'The dispute is not valid', { in: 'body', issues });
  }
  return parsed.data;
}
