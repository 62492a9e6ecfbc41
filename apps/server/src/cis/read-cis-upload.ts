import { AppError, type CisForm, cisFormSchema, cisPdfRules } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import { type FormPartRules, readFormParts } from '../files/read-form-parts.js';
import type { CisPdfUpload } from './create-cis-sheet.js';

const textFields = new Set(['legal_name', 'entity_type', 'jurisdiction', 'source_of_funds']);
const numberFields = new Set(['size_min_usd', 'size_max_usd', 'settlement_window_hours']);
const listFields = new Set(['assets', 'preferred_chains']);

/** The signed PDF: one file named file, at most 10 MB; room for every field's values besides. */
const formRules: FormPartRules = {
  limits: { fileSize: cisPdfRules.maxBytes, files: 1, fields: 60, fieldSize: 4_000, parts: 61 },
  tooLarge: new AppError('PAYLOAD_TOO_LARGE', 'The PDF must be at most 10 MB', {
    issues: [{ path: '/file', message: 'The PDF must be at most 10 MB' }],
  }),
  tooMany: new AppError('VALIDATION_FAILED', 'Attach at most one PDF', {
    issues: [{ path: '/file', message: 'Attach at most one PDF' }],
  }),
};

/**
 * Reads a CIS upload: a JSON body with the form's fields, or multipart/form-data with the same
 * fields (list fields repeated or comma-separated, numbers as decimal digits) and an optional `file`,
 * the signed PDF, read whole up to 10 MB.
 */
export async function readCisUpload(
  request: FastifyRequest,
): Promise<{ form: CisForm; pdf: CisPdfUpload | null }> {
  if (!request.isMultipart()) return { form: parseForm(request.body ?? {}), pdf: null };
  const fields: Record<string, string | number | string[]> = {};
  let pdf: CisPdfUpload | null = null;
  await readFormParts(request, formRules, async (part) => {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        throw new AppError('VALIDATION_FAILED', `Unexpected file field ${part.fieldname}`, {
          issues: [{ path: `/${part.fieldname}`, message: 'Send the signed PDF in the file field' }],
        });
      }
      const content = await part.toBuffer();
      // A browser sends an empty, nameless file for a file input left empty.
      if (content.length > 0 || part.filename) pdf = { filename: cleanFilename(part.filename), content };
    } else if (typeof part.value === 'string') {
      addField(fields, part.fieldname, part.value);
    }
  });
  return { form: parseForm(fields), pdf };
}

/**
 * Keeps the form's own fields only; list fields gather every value, each split at commas; numbers
 * written in decimal digits become numbers (anything else stays text, for the schema to refuse).
 */
function addField(fields: Record<string, string | number | string[]>, name: string, value: string): void {
  if (textFields.has(name)) {
    fields[name] = value;
  } else if (numberFields.has(name)) {
    const digits = value.trim();
    fields[name] = /^\d{1,15}$/.test(digits) ? Number(digits) : value;
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
