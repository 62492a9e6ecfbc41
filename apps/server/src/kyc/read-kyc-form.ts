import { AppError, type KycApplication, kycApplicationSchema, kycDocumentRules } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import { type FormPartRules, readFormParts } from '../files/read-form-parts.js';
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

/** 1–5 documents of at most 10 MB each, in the documents field. */
const formRules: FormPartRules = {
  limits: {
    fileSize: kycDocumentRules.maxBytes,
    files: kycDocumentRules.maxFiles,
    fields: 20,
    fieldSize: 2_000,
    parts: 30,
  },
  tooLarge: new AppError('PAYLOAD_TOO_LARGE', 'Each document must be at most 10 MB', {
    issues: [{ path: '/documents', message: 'Each document must be at most 10 MB' }],
  }),
  tooMany: new AppError('VALIDATION_FAILED', 'Attach between 1 and 5 documents', {
    issues: [{ path: '/documents', message: 'Attach between 1 and 5 documents' }],
  }),
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
  await readFormParts(request, formRules, async (part) => {
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
  });
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
