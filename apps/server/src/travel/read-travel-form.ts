import { AppError, travelFileRules } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';

export interface TravelFileUpload {
  filename: string;
  content: Buffer;
}

const tooMany = new AppError('VALIDATION_FAILED', 'Attach exactly one file', {
  issues: [{ path: '/file', message: 'Attach exactly one file' }],
});

const multipartRefusals: Record<string, AppError> = {
  FST_REQ_FILE_TOO_LARGE: new AppError('PAYLOAD_TOO_LARGE', 'The file must be at most 10 MB', {
    issues: [{ path: '/file', message: 'The file must be at most 10 MB' }],
  }),
  FST_FILES_LIMIT: tooMany,
  FST_FIELDS_LIMIT: new AppError('VALIDATION_FAILED', 'The form has too many fields'),
  FST_PARTS_LIMIT: new AppError('VALIDATION_FAILED', 'The form has too many parts'),
  FST_PROTO_VIOLATION: new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed'),
};

/**
 * Reads a quote's multipart form: exactly one `file`, read whole up to 10 MB. Any other file field
 * is refused; text fields are ignored.
 */
export async function readTravelForm(request: FastifyRequest): Promise<TravelFileUpload> {
  const uploads: TravelFileUpload[] = [];
  try {
    for await (const part of request.parts({
      limits: { fileSize: travelFileRules.maxBytes, files: 1, fields: 5, fieldSize: 1_000, parts: 6 },
    })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') {
        throw new AppError('VALIDATION_FAILED', `Unexpected file field ${part.fieldname}`, {
          issues: [{ path: `/${part.fieldname}`, message: 'Send the file in the file field' }],
        });
      }
      uploads.push({ filename: cleanFilename(part.filename), content: await part.toBuffer() });
    }
  } catch (error) {
    const refusal = multipartRefusals[(error as { code?: string }).code ?? ''];
    throw refusal ?? error;
  }
  if (uploads.length !== 1) throw tooMany;
  return uploads[0]!;
}

/** The file's own name without any path, control characters or quotes, for display and downloads. */
function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter(
    (character) => character >= ' ' && character !== '\x7f' && character !== '"',
  );
  return printable.join('').trim().slice(0, 200) || 'quote';
}
