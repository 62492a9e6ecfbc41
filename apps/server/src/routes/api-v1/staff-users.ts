import type { FastifyPluginAsync } from 'fastify';

/** Admins assign staff roles; staff read any deal's audit trail: `/staff/users`, `/staff/deals` (being built). */
export const staffUserRoutes: FastifyPluginAsync = async () => {};
