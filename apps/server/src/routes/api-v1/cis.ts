import type { FastifyPluginAsync } from 'fastify';

/** CIS exchange: `/cis` and `/deals/{id}/cis…` (being built). */
export const cisRoutes: FastifyPluginAsync = async () => {};
