import {
  dealMessagePageSchema,
  dealMessageSchema,
  newDealMessageSchema,
  userNotificationPageSchema,
  userNotificationSchema,
} from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findDealRoomSeat } from '../../deal-room/find-deal-room-seat.js';
import { listDealMessages } from '../../deal-room/list-deal-messages.js';
import { listNotifications } from '../../deal-room/list-notifications.js';
import { markAllNotificationsRead, markNotificationRead } from '../../deal-room/mark-notifications-read.js';
import { postDealMessage } from '../../deal-room/post-deal-message.js';
import { streamDealEvents } from '../../deal-room/stream-deal-events.js';
import { principalOf } from './principal-of.js';

const dealIdParams = z.object({ id: z.uuid() });
const messagesQuery = z.object({
  cursor: z.uuid().optional().describe('The last message id of the previous page'),
});
const notificationsQuery = z.object({
  cursor: z.uuid().optional().describe('The last notification id of the previous page'),
  unread: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .describe('true: only unread notifications'),
});

/**
 * The deal room: messages between the parties (and a mediator during a dispute), the live event
 * stream of a deal, and the caller's in-app notifications.
 */
export const dealRoomRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const deps = { db, now: app.clock };

  routes.get(
    '/deals/:id/events',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Trading'],
        summary: 'Follow a deal live (server-sent events)',
        description:
          'A `text/event-stream`: `event: deal` with `data: {"kind": "audit" | "message" | "escrow" | "resync"}` ' +
          'whenever the deal changes, a message arrives, or its escrow changes (opened, a deposit seen or one ' +
          'confirmation deeper, a payout built, approved, sent or confirmed): re-read the deal or the escrow then. ' +
          '`resync` means anything may have changed. A `: keepalive` comment every 15 s. ' +
          'For the deal’s parties, and mediators while the deal has a dispute.',
        params: dealIdParams,
      },
    },
    async (request, reply) => {
      await findDealRoomSeat(db, principalOf(request), request.params.id);
      streamDealEvents(app.dealEvents, reply, request.params.id);
    },
  );

  routes.get(
    '/deals/:id/messages',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Trading'],
        summary: 'Read a deal room’s messages, oldest first, 50 a page',
        params: dealIdParams,
        querystring: messagesQuery,
        response: { 200: dealMessagePageSchema },
      },
    },
    async (request) => {
      const seat = await findDealRoomSeat(db, principalOf(request), request.params.id);
      return listDealMessages(db, seat, request.query.cursor);
    },
  );

  routes.post(
    '/deals/:id/messages',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Trading'],
        summary: 'Write to a deal room (refused once the deal is cancelled or completed)',
        params: dealIdParams,
        body: newDealMessageSchema,
        response: { 201: dealMessageSchema },
      },
    },
    async (request, reply) => {
      const seat = await findDealRoomSeat(db, principalOf(request), request.params.id);
      const message = await postDealMessage(deps, seat, request.body.body);
      return reply.code(201).send(message);
    },
  );

  routes.get(
    '/notifications',
    {
      config: { access: 'read' },
      schema: {
        tags: ['User'],
        summary: 'Your notifications, newest first, with the number unread',
        querystring: notificationsQuery,
        response: { 200: userNotificationPageSchema },
      },
    },
    async (request) => listNotifications(db, principalOf(request).userId, request.query),
  );

  routes.post(
    '/notifications/:id/read',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['User'],
        summary: 'Mark one of your notifications read',
        params: z.object({ id: z.uuid() }),
        response: { 200: userNotificationSchema },
      },
    },
    async (request) => markNotificationRead(deps, principalOf(request).userId, request.params.id),
  );

  routes.post(
    '/notifications/read-all',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['User'],
        summary: 'Mark all your notifications read',
        response: { 200: z.object({ marked: z.number().int() }) },
      },
    },
    async (request) => ({ marked: await markAllNotificationsRead(deps, principalOf(request).userId) }),
  );
};
