import { multiLineText } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getSupportMessage } from '../../support/get-support-message.js';
import { listSupportMessages } from '../../support/list-support-messages.js';
import {
  supportKindSchema,
  supportMessageDetailSchema,
  supportMessageSummarySchema,
  supportStatusSchema,
} from '../../support/present-support-message.js';
import { replyToSupportMessage } from '../../support/reply-to-support-message.js';
import { requireSupportStaff } from '../../support/require-support-staff.js';
import { setSupportMessageStatus } from '../../support/set-support-message-status.js';
import { createSupportDeps } from '../../support/support-deps.js';

const idParams = z.object({ id: z.uuid() });

/**
 * The staff support inbox under `/api/v1/staff/support`: list, read, set status, reply by e-mail.
 * Every route is for admins (401 without a valid token, 403 for other users).
 */
export const apiV1SupportStaffRoutes: FastifyPluginAsync = async (app) => {
  const deps = createSupportDeps(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Registered inside the authenticated /api/v1 scope, whose hook has set `request.principal`.
  app.addHook('onRequest', async (request) => {
    requireSupportStaff(request.principal);
  });

  routes.get(
    '/messages',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'List contact messages and tickets, newest first',
        querystring: z.object({
          status: supportStatusSchema.optional(),
          kind: supportKindSchema.optional(),
          limit: z.coerce.number().int().min(1).max(100).default(25),
          starting_after: z.uuid().optional(),
        }),
        response: { 200: z.object({ data: z.array(supportMessageSummarySchema), has_more: z.boolean() }) },
      },
    },
    async (request) =>
      listSupportMessages(deps, {
        status: request.query.status,
        kind: request.query.kind,
        limit: request.query.limit,
        startingAfter: request.query.starting_after,
      }),
  );

  routes.get(
    '/messages/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Read a message and its replies',
        params: idParams,
        response: { 200: supportMessageDetailSchema },
      },
    },
    async (request) => getSupportMessage(deps, request.params.id),
  );

  routes.post(
    '/messages/:id/status',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Set the status of a message',
        params: idParams,
        body: z.object({ status: supportStatusSchema }),
        response: { 200: supportMessageDetailSchema },
      },
    },
    async (request) => setSupportMessageStatus(deps, { id: request.params.id, status: request.body.status }),
  );

  routes.post(
    '/messages/:id/replies',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'E-mail a reply to the sender and add it to the thread',
        params: idParams,
        body: z.object({ body: multiLineText().min(1).max(10_000) }),
        response: { 201: supportMessageDetailSchema },
      },
    },
    async (request, reply) => {
      const staff = requireSupportStaff(request.principal);
      const message = await replyToSupportMessage(deps, {
        id: request.params.id,
        body: request.body.body,
        authorId: staff.userId,
      });
      return reply.status(201).send(message);
    },
  );
};
