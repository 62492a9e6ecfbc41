import { STATUS_CODES } from 'node:http';
import { isAppError, isInvalidTextIssue } from '@covenant/domain';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** What a client may learn about a failed request; never more than this leaves the server. */
export interface ClassifiedError {
  statusCode: number;
  code: string;
  message: string;
  details: Record<string, unknown> | null;
}

/** Fastify's own request errors, with the answer each gets. Their messages are ours, not the client's. */
const requestErrors: Record<string, Omit<ClassifiedError, 'details'>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    statusCode: 400,
    code: 'INVALID_JSON',
    message: 'The body is not valid JSON',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    statusCode: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The body is too large',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    statusCode: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported content type',
  },
  FST_ERR_BAD_URL: {
    statusCode: 400,
    code: 'BAD_REQUEST',
    message: 'The URL is not valid: a path segment is not percent-encoded UTF-8',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    statusCode: 400,
    code: 'BAD_REQUEST',
    message: 'Content-Length does not match the body',
  },
};

const codeByStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

export const internalError: ClassifiedError = {
  statusCode: 500,
  code: 'INTERNAL_ERROR',
  message: 'Internal server error',
  details: null,
};

/**
 * Turns anything a handler threw into the status, code and message a client may see: business
 * errors (AppError) as they are, schema validation with its issues (422 when only text was refused), Fastify's request errors
 * (malformed JSON, too large, wrong media type) as 4xx, everything else as a bare 500.
 */
export function classifyError(error: unknown): ClassifiedError {
  if (isAppError(error)) {
    return {
      statusCode: error.status,
      code: error.code,
      message: error.message,
      details: error.details ?? null,
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // Only refused text (a text rule of @covenant/domain) is 422; any other issue makes it a bad request.
    const onlyText = error.validation.every(isInvalidTextIssue);
    return {
      statusCode: onlyText ? 422 : 400,
      code: onlyText ? 'INVALID_TEXT' : 'VALIDATION_FAILED',
      message: onlyText
        ? (error.validation[0]?.message ?? 'The text is not valid')
        : 'The request is not valid',
      details: {
        in: (error as { validationContext?: string }).validationContext ?? 'body',
        issues: error.validation.map((issue) => ({
          path: issue.instancePath,
          message: issue.message ?? 'Invalid value',
        })),
      },
    };
  }
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  const known = typeof code === 'string' ? requestErrors[code] : undefined;
  if (known) return { ...known, details: null };
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return {
      statusCode,
      code: codeByStatus[statusCode] ?? 'BAD_REQUEST',
      message: STATUS_CODES[statusCode] ?? 'Bad Request',
      details: null,
    };
  }
  return internalError;
}
