import type { FastifyPluginAsync } from 'fastify';

/** The deal room: messages, live events and notifications (being built). */
export const dealRoomRoutes: FastifyPluginAsync = async () => {};
