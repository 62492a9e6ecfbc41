import { AppError, disputeEvidenceRules, type OpenDispute, openDisputeSchema } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import type { EvidenceUpload } from './store-dispute-evidence.js';

const multipartRefusals: Record<string, AppError> = {
  FST_REQ_FILE_TOO_LARGE: new AppError('PAYLOAD_TOO_LARGE', 'Each evidence file must be at most 10 MB', {
    issues: [{ path: '/evidence', message: 'Each evidence file must be at most 10 MB' }],
  }),
  FST_FILES_LIMIT: new AppError('VALIDATION_FAILED', 'Attach at most 5 evidence files', {
    issues: [{ path: '/evidence', message: 'Attach at most 5 evidence files' }],
  }),
  FST_FIELDS_LIMIT: new AppError('VALIDATION_FAILED', 'The form has too many fields'),
  FST_PARTS_LIMIT: new AppError('VALIDATION_FAILED', 'The form has too many parts'),
  FST_PROTO_VIOLATION: new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed'),
};

/**
 * Reads a dispute's multipart form: the `reason` field and the `evidence` files, each read whole up
 * to 10 MB. Any other file field is refused; other text fields are ignored.
 */
export async function readDisputeForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; uploads: EvidenceUpload[] }> {
  const fields: Record<string, string> = {};
  const uploads: EvidenceUpload[] = [];
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: disputeEvidenceRules.maxBytes,
        files: disputeEvidenceRules.maxFiles,
        fields: 5,
        // 4000 characters of up to 4 UTF-8 bytes each, with room for whitespace that is trimmed.
        fieldSize: 32_000,
        parts: 12,
      },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'evidence') {
          throw new AppError('VALIDATION_FAILED', `Unexpected file field ${part.fieldname}`, {
            issues: [{ path: `/${part.fieldname}`, message: 'Send evidence in the evidence field' }],
          });
        }
        uploads.push({ filename: cleanFilename(part.filename), content: await part.toBuffer() });
      } else if (part.fieldname === 'reason' && typeof part.value === 'string') {
        fields.reason = part.value;
      }
    }
  } catch (error) {
    const refusal = multipartRefusals[(error as { code?: string }).code ?? ''];
    throw refusal ?? error;
  }
  return { fields, uploads };
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

/** The file's own name without any path, control characters or quotes, for display and downloads. */
function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter(
    (character) => character >= ' ' && character !== '\x7f' && character !== '"',
  );
  return printable.join('').trim().slice(0, 200) || 'evidence';
}
