import { AppError, travelFileRules } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import { type FormPartRules, readFormParts } from '../files/read-form-parts.js';

export interface TravelFileUpload {
  filename: string;
  content: Buffer;
}

const tooMany = new AppError('VALIDATION_FAILED', 'Attach exactly one file', {
  issues: [{ path: '/file', message: 'Attach exactly one file' }],
});

/** One file of at most 10 MB; a few text fields are tolerated and ignored. */
const formRules: FormPartRules = {
  limits: { fileSize: travelFileRules.maxBytes, files: 1, fields: 5, fieldSize: 1_000, parts: 6 },
  tooLarge: new AppError('PAYLOAD_TOO_LARGE', 'The file must be at most 10 MB', {
    issues: [{ path: '/file', message: 'The file must be at most 10 MB' }],
  }),
  tooMany,
};

/**
 * Reads a quote's multipart form: exactly one `file`, read whole up to 10 MB. Any other file field
 * is refused; text fields are ignored.
 */
export async function readTravelForm(request: FastifyRequest): Promise<TravelFileUpload> {
  const uploads: TravelFileUpload[] = [];
  await readFormParts(request, formRules, async (part) => {
    if (part.type !== 'file') return;
    if (part.fieldname !== 'file') {
      throw new AppError('VALIDATION_FAILED', `Unexpected file field ${part.fieldname}`, {
        issues: [{ path: `/${part.fieldname}`, message: 'Send the file in the file field' }],
      });
    }
    uploads.push({ filename: cleanFilename(part.filename), content: await part.toBuffer() });
  });
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
