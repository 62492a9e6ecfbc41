import { AppError, type CisForm, cisFormSchema, cisPdfRules } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import type { CisPdfUpload } from './create-cis-sheet.js';

const singleFields = new Set([
  'legal_name',
  'entity_type',
  'jurisdiction',
  'source_of_funds',
  'size_range',
  'settlement_window',
]);
const listFields = new Set(['assets', 'preferred_chains']);

const multipartRefusals: Record<string, AppError> = {
  FST_REQ_FILE_TOO_LARGE: new AppError('PAYLOAD_TOO_LARGE', 'The PDF must be at most 10 MB', {
    issues: [{ path: '/pdf', message: 'The PDF must be at most 10 MB' }],
  }),
  FST_FILES_LIMIT: new AppError('VALIDATION_FAILED', 'Attach at most one PDF', {
    issues: [{ path: '/pdf', message: 'Attach at most one PDF' }],
  }),
  FST_FIELDS_LIMIT: new AppError('VALIDATION_FAILED', 'The form has too many fields'),
  FST_PARTS_LIMIT: new AppError('VALIDATION_FAILED', 'The form has too many parts'),
  FST_PROTO_VIOLATION: new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed'),
};

/**
 * Reads a CIS upload: a JSON body with the form's fields, or multipart/form-data with the same
 * fields (list fields repeated or comma-separated) and an optional `pdf` file read whole up to 10 MB.
 */
export async function readCisUpload(
  request: FastifyRequest,
): Promise<{ form: CisForm; pdf: CisPdfUpload | null }> {
  if (!request.isMultipart()) return { form: parseForm(request.body ?? {}), pdf: null };
  const fields: Record<string, string | string[]> = {};
  let pdf: CisPdfUpload | null = null;
  try {
    for await (const part of request.parts({
      limits: { fileSize: cisPdfRules.maxBytes, files: 1, fields: 60, fieldSize: 4_000, parts: 61 },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'pdf') {
          throw new AppError('VALIDATION_FAILED', `Unexpected file field ${part.fieldname}`, {
            issues: [{ path: `/${part.fieldname}`, message: 'Send the signed PDF in the pdf field' }],
          });
        }
        const content = await part.toBuffer();
        // A browser sends an empty, nameless file for a file input left empty.
        if (content.length > 0 || part.filename) pdf = { filename: cleanFilename(part.filename), content };
      } else if (typeof part.value === 'string') {
        addField(fields, part.fieldname, part.value);
      }
    }
  } catch (error) {
    const refusal = multipartRefusals[(error as { code?: string }).code ?? ''];
    throw refusal ?? error;
  }
  return { form: parseForm(fields), pdf };
}

/** Keeps the form's own fields only; list fields gather every value, each split at commas. */
function addField(fields: Record<string, string | string[]>, name: string, value: string): void {
  if (singleFields.has(name)) {
    fields[name] = value;
  } else if (listFields.has(name)) {
    const items = value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    fields[name] = [...((fields[name] as string[] | undefined) ?? []), ...items];
  }
}

function parseForm(fields: unknown): CisForm {
  const parsed = cisFormSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    path: `/${issue.path.join('/')}`,
    message: issue.message,
  }));
  throw new AppError('VALIDATION_FAILED', 'The CIS form is not valid', { in: 'body', issues });
}

/** The file's own name without any path, control characters or quotes, for display and downloads. */
function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter(
    (character) => character >= ' ' && character !== '\x7f' && character !== '"',
  );
  return printable.join('').trim().slice(0, 200) || 'cis.pdf';
}
