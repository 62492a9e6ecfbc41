import type { FastifyPluginAsync } from 'fastify';

/** Disputes opened by a deal's parties: `/deals/{id}/disputes` (being built). */
export const disputeRoutes: FastifyPluginAsync = async () => {};
