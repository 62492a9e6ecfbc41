import { AppError } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import { readFormParts } from './read-form-parts.js';

/** A file as a multipart form sent it: its cleaned name and whole content. */
export interface FileUpload {
  filename: string;
  content: Buffer;
}

export interface UploadFormRules {
  /** The one field files are taken from; a file in any other field is refused. */
  fileField: string;
  /** The text fields kept; others are ignored. */
  textFields: readonly string[];
  maxFiles: number;
  maxBytes: number;
  /** The largest text field, in bytes. */
  fieldSize: number;
  /** What the refusals say: "Each evidence file must be at most 10 MB", "Attach at most 5 evidence files". */
  tooLarge: string;
  tooMany: string;
  /** The name a file gets when its own has nothing printable left. */
  fallbackName: string;
}

/**
 * Reads a multipart form: the named text fields and the files of `fileField`, each read whole up to
 * `maxBytes`. Busboy's limits become the API's errors: a file too large is a 413, too many files or
 * parts a 400; a malformed body is a 400 too (`readFormParts`).
 */
export async function readUploadForm(
  request: FastifyRequest,
  rules: UploadFormRules,
): Promise<{ fields: Record<string, string>; uploads: FileUpload[] }> {
  const fields: Record<string, string> = {};
  const uploads: FileUpload[] = [];
  const path = `/${rules.fileField}`;
  const limits = {
    fileSize: rules.maxBytes,
    files: rules.maxFiles,
    fields: rules.textFields.length + 4,
    fieldSize: rules.fieldSize,
    parts: rules.maxFiles + rules.textFields.length + 6,
  };
  const tooLarge = new AppError('PAYLOAD_TOO_LARGE', rules.tooLarge, {
    issues: [{ path, message: rules.tooLarge }],
  });
  const tooMany = new AppError('VALIDATION_FAILED', rules.tooMany, {
    issues: [{ path, message: rules.tooMany }],
  });
  await readFormParts(request, { limits, tooLarge, tooMany }, async (part) => {
    if (part.type === 'file') {
      if (part.fieldname !== rules.fileField) {
        throw new AppError('VALIDATION_FAILED', `Unexpected file field ${part.fieldname}`, {
          issues: [{ path: `/${part.fieldname}`, message: `Send files in the ${rules.fileField} field` }],
        });
      }
      uploads.push({
        filename: cleanFilename(part.filename, rules.fallbackName),
        content: await part.toBuffer(),
      });
    } else if (rules.textFields.includes(part.fieldname) && typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  });
  return { fields, uploads };
}

/** The file's own name without any path, control characters or quotes, for display and downloads. */
export function cleanFilename(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter(
    (character) => character >= ' ' && character !== '\x7f' && character !== '"',
  );
  return printable.join('').trim().slice(0, 200) || fallback;
}
