import { AppError, type KycApplication, kycApplicationSchema, kycDocumentRules } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import type { KycDocumentUpload } from './submit-kyc.js';

const fieldNames = new Set([
  'subject_type',
  'legal_name',
  'country',
  'date_of_birth',
  'place_of_birth_city',
  'place_of_birth_country',
  'registration_number',
  'registration_authority',
  'address',
  'town_name',
  'requested_tier',
]);

const multipartRefusals: Record<string, AppError> = {
  FST_REQ_FILE_TOO_LARGE: new AppError('PAYLOAD_TOO_LARGE', 'Each document must be at most 10 MB', {
    issues: [{ path: '/documents', message: 'Each document must be at most 10 MB' }],
  }),
  FST_FILES_LIMIT: new AppError('VALIDATION_FAILED', 'Attach between 1 and 5 documents', {
    issues: [{ path: '/documents', message: 'Attach between 1 and 5 documents' }],
  }),
  FST_FIELDS_LIMIT: new AppError('VALIDATION_FAILED', 'The form has too many fields'),
  FST_PARTS_LIMIT: new AppError('VALIDATION_FAILED', 'The form has too many parts'),
  FST_PROTO_VIOLATION: new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed'),
};

/**
 * Reads the multipart KYC form: the text fields (validated by the shared schema against `today`) and
 * the `documents` files, each read whole up to 10 MB. Any other file field is refused.
 */
export async function readKycForm(
  request: FastifyRequest,
  today: string,
): Promise<{ application: KycApplication; uploads: KycDocumentUpload[] }> {
  if (!request.isMultipart()) {
    throw new AppError('VALIDATION_FAILED', 'Send the KYC form as multipart/form-data');
  }
  const fields: Record<string, string> = {};
  const uploads: KycDocumentUpload[] = [];
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: kycDocumentRules.maxBytes,
        files: kycDocumentRules.maxFiles,
        fields: 20,
        fieldSize: 2_000,
        parts: 30,
      },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'documents') {
          throw new AppError('VALIDATION_FAILED', `Unexpected file field ${part.fieldname}`, {
            issues: [{ path: `/${part.fieldname}`, message: 'Send documents in the documents field' }],
          });
        }
        uploads.push({ filename: cleanFilename(part.filename), content: await part.toBuffer() });
      } else if (fieldNames.has(part.fieldname) && typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const refusal = multipartRefusals[(error as { code?: string }).code ?? ''];
    throw refusal ?? error;
  }
  const parsed = kycApplicationSchema(today).safeParse(fields);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: `/${issue.path.join('/')}`,
      message: issue.message,
    }));
    throw new AppError('VALIDATION_FAILED', 'The KYC form is not valid', { in: 'body', issues });
  }
  return { application: parsed.data, uploads };
}

/** The file's own name without any path, control characters or quotes, for display and downloads. */
function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter(
    (character) => character >= ' ' && character !== '\x7f' && character !== '"',
  );
  return printable.join('').trim().slice(0, 200) || 'document';
}
