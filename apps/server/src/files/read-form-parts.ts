import { AppError, isAppError } from '@covenant/domain';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';

export interface FormPartRules {
  /** Busboy's limits: the largest file and text field in bytes, and how many files, fields and parts. */
  limits: { fileSize: number; files: number; fields: number; fieldSize: number; parts: number };
  /** What a file over `limits.fileSize` is refused with (a 413 naming the form's file field). */
  tooLarge: AppError;
  /** What one file more than `limits.files` is refused with. */
  tooMany: AppError;
}

/**
 * Reads every part of a multipart form, one after another, through `onPart`. Whatever reading the
 * parts throws becomes one of the API's refusals (`formRefusal`), so a form the client broke is
 * never answered as the server's fault.
 */
export async function readFormParts(
  request: FastifyRequest,
  rules: FormPartRules,
  onPart: (part: Multipart) => Promise<void> | void,
): Promise<void> {
  try {
    for await (const part of request.parts({ limits: rules.limits })) await onPart(part);
  } catch (error) {
    throw formRefusal(error, rules);
  }
}

/** The limits every form shares, with what the client is told. */
const limitRefusals = new Map<unknown, AppError>([
  ['FST_FIELDS_LIMIT', new AppError('VALIDATION_FAILED', 'The form has too many fields')],
  ['FST_PARTS_LIMIT', new AppError('VALIDATION_FAILED', 'The form has too many parts')],
  ['FST_PROTO_VIOLATION', new AppError('VALIDATION_FAILED', 'The form has a field name that is not allowed')],
]);

/**
 * What a client is answered for an error met while reading its form: our own refusals as they are,
 * busboy's limits as the form's own messages, @fastify/multipart's other 4xx as they are, and
 * anything else as 400. The parser's errors for a malformed body (a body cut off before its closing
 * boundary, a content type without a boundary, a boundary too long) carry no status code: left
 * alone they would be answered 500 and logged as the server's failure.
 */
export function formRefusal(error: unknown, rules: Pick<FormPartRules, 'tooLarge' | 'tooMany'>): unknown {
  if (isAppError(error)) return error;
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return rules.tooLarge;
  if (code === 'FST_FILES_LIMIT') return rules.tooMany;
  const limit = limitRefusals.get(code);
  if (limit) return limit;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) return error;
  const reason = error instanceof Error && error.message ? error.message : 'it could not be read';
  return new AppError('VALIDATION_FAILED', `The form is not valid multipart: ${reason}`);
}
