import { randomUUID } from 'node:crypto';
import {
  cannedReplyInputSchema,
  cannedReplySchema,
  chatMessageBodySchema,
  chatStatuses,
  staffChatConversationSchema,
  staffChatSummarySchema,
} from '@covenant/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readChatAttachment } from '../../chat/chat-attachments.js';
import { createChatDeps } from '../../chat/chat-deps.js';
import { readChatAttachmentForm } from '../../chat/read-chat-attachment-form.js';
import {
  admitStaffReply,
  assignConversation,
  closeConversation,
  createCannedReply,
  deleteCannedReply,
  getStaffConversation,
  listCannedReplies,
  listStaffConversations,
  replyToConversation,
} from '../../chat/staff-chat.js';
import { markStaffPresent, removeStaffPresence } from '../../chat/staff-presence.js';
import { streamServerSentEvents } from '../../plugins/server-sent-events.js';
import { requireSupportStaff } from '../../support/require-support-staff.js';
import { sendEvidence } from './disputes.js';

const idParams = z.object({ id: z.uuid() });

/**
 * The live chat's staff console under `/api/v1/staff/chat`: every conversation, assignment, answers,
 * canned replies, and the live stream whose connection is the staff member's presence. For the
 * support inbox's staff (admins with a second factor, ADR 006).
 */
export const apiV1StaffChatRoutes: FastifyPluginAsync = async (app) => {
  const deps = await createChatDeps(app);
  // Attachments are read part by part with their own limits; the JSON body limit does not apply.
  await app.register(multipart);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Registered inside the authenticated /api/v1 scope, whose hook has set `request.principal`.
  app.addHook('onRequest', async (request) => {
    requireSupportStaff(request.principal);
  });
  const staffOf = (request: { principal: Parameters<typeof requireSupportStaff>[0] }) =>
    requireSupportStaff(request.principal);

  routes.get(
    '/events',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Follow every conversation live (server-sent events); while open, you are online',
        description:
          'A `text/event-stream`: `event: chat` with `data: {"kind": "message" | "conversation" | "resync", ' +
          '"conversation_id": …}` whenever a conversation changes. A `: keepalive` comment every 15 s. ' +
          'While a staff member’s stream is open, visitors are told support is online and chats stay live.',
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const streamId = randomUUID();
      await markStaffPresent(deps, streamId, staff.userId);
      const refresh = () =>
        markStaffPresent(deps, streamId, staff.userId).catch((error: unknown) =>
          request.log.warn({ err: error }, 'staff chat presence not refreshed'),
        );
      streamServerSentEvents(reply, {
        eventName: 'chat',
        subscribe: (feed) => app.chatEvents.subscribeStaff({ event: feed.send, end: feed.end }),
        onKeepalive: () => void refresh(),
        onEnd: () =>
          void removeStaffPresence(deps, streamId).catch((error: unknown) =>
            request.log.warn({ err: error }, 'staff chat presence not removed'),
          ),
      });
    },
  );

  routes.get(
    '/conversations',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'List live chat conversations, latest activity first (open by default)',
        querystring: z.object({
          status: z.enum(chatStatuses).default('open'),
          limit: z.coerce.number().int().min(1).max(100).default(50),
        }),
        response: { 200: z.object({ data: z.array(staffChatSummarySchema) }) },
      },
    },
    async (request) => listStaffConversations(deps, request.query),
  );

  routes.get(
    '/conversations/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Read a conversation and its whole history',
        params: idParams,
        response: { 200: staffChatConversationSchema },
      },
    },
    async (request) => getStaffConversation(deps, request.params.id),
  );

  routes.post(
    '/conversations/:id/assign',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Take a conversation: it is assigned to you',
        params: idParams,
        response: { 200: staffChatConversationSchema },
      },
    },
    async (request) => assignConversation(deps, { id: request.params.id, staffId: staffOf(request).userId }),
  );

  routes.post(
    '/conversations/:id/messages',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Answer a conversation (e-mailed to the visitor when it was opened while no one was online)',
        params: idParams,
        body: chatMessageBodySchema,
        response: { 201: staffChatConversationSchema },
      },
    },
    async (request, reply) => {
      const conversation = await replyToConversation(deps, {
        id: request.params.id,
        staffId: staffOf(request).userId,
        body: request.body.body,
      });
      return reply.status(201).send(conversation);
    },
  );

  routes.post(
    '/conversations/:id/attachments',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Answer a conversation with a file, with or without text',
        description:
          'multipart/form-data with one file named file (PDF, PNG or JPEG by content, at most 10 MB), stored ' +
          'encrypted, and an optional field body. In a conversation answered by e-mail the e-mail names the file; ' +
          'the visitor downloads it in the chat. At most 20 files in a conversation (409 after); 415 for another ' +
          'type, 413 when too big.',
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 201: staffChatConversationSchema },
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      // A closed or full conversation is refused before a byte of the file is read.
      const admitted = await admitStaffReply(deps, { id: request.params.id, withFile: true });
      const { body, attachment } = await readChatAttachmentForm(request);
      const conversation = await replyToConversation(deps, {
        id: request.params.id,
        staffId: staff.userId,
        body,
        attachment,
        admitted,
      });
      return reply.status(201).send(conversation);
    },
  );

  routes.get(
    '/conversations/:id/attachments/:attachment_id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Download a file of a conversation (decrypted, as an attachment)',
        params: idParams.extend({ attachment_id: z.uuid() }),
      },
    },
    async (request, reply) =>
      sendEvidence(
        reply,
        await readChatAttachment(deps, {
          conversationId: request.params.id,
          attachmentId: request.params.attachment_id,
        }),
      ),
  );

  routes.post(
    '/conversations/:id/close',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Close a conversation; its history stays',
        params: idParams,
        response: { 200: staffChatConversationSchema },
      },
    },
    async (request) => closeConversation(deps, request.params.id),
  );

  routes.get(
    '/canned-replies',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'The team’s canned replies, by title',
        response: { 200: z.object({ data: z.array(cannedReplySchema) }) },
      },
    },
    async () => listCannedReplies(deps),
  );

  routes.post(
    '/canned-replies',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Add a canned reply',
        body: cannedReplyInputSchema,
        response: { 201: cannedReplySchema },
      },
    },
    async (request, reply) => {
      const created = await createCannedReply(deps, { ...request.body, staffId: staffOf(request).userId });
      return reply.status(201).send(created);
    },
  );

  routes.delete(
    '/canned-replies/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Support'],
        summary: 'Remove a canned reply',
        params: idParams,
        response: { 204: z.null().describe('Removed') },
      },
    },
    async (request, reply) => {
      await deleteCannedReply(deps, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
