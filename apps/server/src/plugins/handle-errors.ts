import type { FastifyInstance, FastifyReply } from 'fastify';
import { type ClassifiedError, classifyError } from './classify-error.js';

/** The public API's error object (spec §8). */
export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    details: Record<string, unknown> | null;
    timestamp: string;
  };
}

export function sendApiError(reply: FastifyReply, error: ClassifiedError, now: Date): FastifyReply {
  const body: ApiErrorBody = {
    error: { code: error.code, message: error.message, details: error.details, timestamp: now.toISOString() },
  };
  return reply.status(error.statusCode).send(body);
}

/**
 * The root error handler: every error not handled by a more specific plugin (the GoTrue-shaped
 * /auth/v1 sets its own) is answered with the API error object; 5xx details only go to the log.
 */
export function handleErrors(app: FastifyInstance, clock: () => Date): void {
  app.setErrorHandler((error, request, reply) => {
    const classified = classifyError(error);
    if (classified.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: classified.code, reason: (error as Error).message }, 'request refused');
    return sendApiError(reply, classified, clock());
  });
}
