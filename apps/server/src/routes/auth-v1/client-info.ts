import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../../auth/start-session.js';

/** The caller's address (as trusted proxies report it) and browser, recorded with each session. */
export function clientInfoOf(request: FastifyRequest): ClientInfo {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : undefined };
}
