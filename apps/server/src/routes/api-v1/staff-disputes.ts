import type { FastifyPluginAsync } from 'fastify';

/** The mediators' console: `/staff/disputes` (being built). */
export const staffDisputeRoutes: FastifyPluginAsync = async () => {};
