import { AppError } from '@covenant/domain';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../api/principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every authenticated /api/v1 route before its handler runs. */
    principal: Principal | null;
  }
}

/** The caller of an authenticated /api/v1 route (the scope's hook guarantees there is one). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHORIZED', 'This endpoint requires a Bearer token');
  return request.principal;
}
