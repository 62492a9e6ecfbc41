import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Config } from '../config.js';

/**
 * Fastify's request lines, one per request instead of two: written when the request completes,
 * with method, masked URL, status, duration in ms and the request id. JSON logs (for a collector)
 * get them at `info`; pretty logs (a person at a terminal) at `debug`, so the console stays quiet
 * while refused requests and failures still show from the error handlers. Fastify's other lines
 * (stream and serializer errors) stay as they are.
 */
export function createRequestLogController(format: Config['logFormat']): LogController {
  const level = format === 'json' ? 'info' : 'debug';
  return new (class extends LogController {
    override incomingRequest(): void {}

    override requestCompleted(
      error: Error | null | undefined,
      request: FastifyRequest,
      reply: FastifyReply,
    ): void {
      if (this.isLogDisabled(request)) return;
      const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
      if (error) reply.log.error({ ...line, err: error }, 'request errored');
      else reply.log[level](line, 'request completed');
    }
  })();
}
