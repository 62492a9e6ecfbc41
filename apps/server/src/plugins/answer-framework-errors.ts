import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendGoTrueError } from '../routes/auth-v1/handle-gotrue-errors.js';
import { classifyError } from './classify-error.js';
import { sendApiError } from './handle-errors.js';

/**
 * Fastify's `frameworkErrors`: what it refuses before any route is found (a path segment that is not
 * valid percent-encoded UTF-8, e.g. `/deals/%ED%A0%80`) is answered in the same error shape as
 * everything else — GoTrue's under /auth/v1, the API's elsewhere — instead of Fastify's own body.
 */
export function answerFrameworkErrors(clock: () => Date) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const classified = classifyError(error);
    if (classified.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: classified.code, reason: error.message }, 'request refused');
    if (request.url.startsWith('/auth/v1/')) {
      sendGoTrueError(reply, classified.statusCode, 'validation_failed', classified.message);
      return;
    }
    sendApiError(reply, classified, clock());
  };
}
