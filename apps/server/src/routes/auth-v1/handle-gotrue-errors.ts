import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAuthError } from '../../auth/auth-error.js';
import { type ClassifiedError, classifyError } from '../../plugins/classify-error.js';

/** GoTrue's error body; `code` and `error_code` both, as clients of either API version read one of them. */
export interface GoTrueErrorBody {
  code: string;
  error_code: string;
  msg: string;
  message: string;
  [extra: string]: unknown;
}

/** The API version whose error shape we speak; `@supabase/auth-js` reads `code` only when it is sent. */
export const apiVersionHeader = { name: 'X-Supabase-Api-Version', value: '2024-01-01' } as const;

/** GoTrue codes for the app's generic request errors (malformed JSON, schema validation, …). */
const gotrueCodes: Record<string, string> = {
  INVALID_JSON: 'bad_json',
  VALIDATION_FAILED: 'validation_failed',
  INVALID_TEXT: 'validation_failed',
  BAD_REQUEST: 'validation_failed',
  NOT_FOUND: 'not_found',
  RATE_LIMITED: 'over_request_rate_limit',
  INTERNAL_ERROR: 'unexpected_failure',
};

export function sendGoTrueError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): FastifyReply {
  const body: GoTrueErrorBody = { ...extra, code, error_code: code, msg: message, message };
  return reply.status(status).send(body);
}

/**
 * Answers every failure under /auth/v1 in GoTrue's shape: auth errors as they are, everything else
 * (schema validation, malformed JSON, oversized bodies) classified like the rest of the app first.
 */
export function handleGoTrueErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAuthError(error)) {
      request.log.info({ code: error.code, cause: error.cause }, 'auth request refused');
      if (error.retryAfterSeconds) reply.header('Retry-After', String(error.retryAfterSeconds));
      return sendGoTrueError(reply, error.status, error.code, error.message, error.extra);
    }
    const classified = classifyError(error);
    if (classified.statusCode >= 500) request.log.error({ err: error }, 'auth request failed');
    else request.log.info({ code: classified.code, reason: error.message }, 'auth request refused');
    return sendGoTrueError(
      reply,
      classified.statusCode,
      gotrueCodes[classified.code] ?? classified.code.toLowerCase(),
      describe(classified),
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendGoTrueError(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
  );
}

/** A validation failure names the offending fields (`body.email: Invalid email address`). */
function describe(classified: ClassifiedError): string {
  const issues = (classified.details?.issues ?? []) as { path: string; message: string }[];
  const listed = classified.code === 'VALIDATION_FAILED' || classified.code === 'INVALID_TEXT';
  if (!listed || issues.length === 0) return classified.message;
  const place = String(classified.details?.in ?? 'body');
  return issues
    .map((issue) => `${[place, ...issue.path.split('/').filter(Boolean)].join('.')}: ${issue.message}`)
    .join('; ');
}
