import {
  AppError,
  chatConversationSchema,
  chatMessageBodySchema,
  chatStatusSchema,
  chatTokenHeader,
  newChatConversationSchema,
  openedChatConversationSchema,
} from '@covenant/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticatePrincipal } from '../../api/authenticate-principal.js';
import { createAuthDeps } from '../../auth/create-auth-deps.js';
import { readChatAttachment } from '../../chat/chat-attachments.js';
import { createChatDeps } from '../../chat/chat-deps.js';
import { readChatAttachmentForm } from '../../chat/read-chat-attachment-form.js';
import { isStaffOnline } from '../../chat/staff-presence.js';
import {
  admitVisitorMessage,
  chatTokenPattern,
  findConversationByToken,
  getVisitorConversation,
  openChatConversation,
  postVisitorMessage,
} from '../../chat/visitor-chat.js';
import { streamServerSentEvents } from '../../plugins/server-sent-events.js';
import { sendEvidence } from './disputes.js';

/** The visitor's conversation token; other headers pass through untouched. */
const tokenHeaders = z.looseObject({
  [chatTokenHeader]: z
    .string()
    .regex(chatTokenPattern, 'Send the conversation token you were given')
    .describe('The token `POST /chat/conversations` answered with'),
});

/**
 * The live chat's visitor side under `/api/v1/chat`, public: a visitor (or a signed-in user, whose
 * Bearer token links the conversation to the account) opens a conversation and then reaches it only
 * with the token it was given, in the `X-Chat-Token` header.
 */
export const apiV1ChatRoutes: FastifyPluginAsync = async (app) => {
  const authDeps = createAuthDeps(app);
  const deps = await createChatDeps(app);
  // Attachments are read part by part with their own limits; the JSON body limit does not apply.
  await app.register(multipart);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/status',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Whether a support staff member is online in the live chat now',
        response: { 200: chatStatusSchema },
      },
    },
    async () => ({ staff_online: await isStaffOnline(deps) }),
  );

  routes.post(
    '/conversations',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Start a live chat with its first message; answers with the conversation’s token',
        description:
          'When no staff member is online the conversation is opened in `email` mode: staff answer it by e-mail ' +
          'to the given address. A Bearer token is optional and links the conversation to the signed-in user. ' +
          '10 conversations an hour per network, 5 per address.',
        body: newChatConversationSchema,
        response: { 201: openedChatConversationSchema },
      },
    },
    async (request, reply) => {
      const authorization = request.headers.authorization;
      const userId = authorization
        ? (await authenticatePrincipal(authDeps, authorization)).userId
        : undefined;
      const opened = await withRetryAfter(reply, () =>
        openChatConversation(deps, {
          email: request.body.email,
          body: request.body.body,
          ip: request.ip,
          userId,
        }),
      );
      return reply.status(201).send(opened);
    },
  );

  routes.get(
    '/conversation',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Read your conversation and its messages, by its token',
        headers: tokenHeaders,
        response: { 200: chatConversationSchema },
      },
    },
    async (request) => getVisitorConversation(deps, request.headers[chatTokenHeader]),
  );

  routes.post(
    '/conversation/messages',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Write in your conversation, by its token (30 messages in 5 minutes)',
        headers: tokenHeaders,
        body: chatMessageBodySchema,
        response: { 201: chatConversationSchema },
      },
    },
    async (request, reply) => {
      const conversation = await withRetryAfter(reply, () =>
        postVisitorMessage(deps, {
          token: request.headers[chatTokenHeader],
          ip: request.ip,
          body: request.body.body,
        }),
      );
      return reply.status(201).send(conversation);
    },
  );

  routes.post(
    '/conversation/attachments',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Send a file, with or without text, in your conversation, by its token',
        description:
          'multipart/form-data with one file named file (PDF, PNG or JPEG by content, at most 10 MB), stored ' +
          'encrypted, and an optional field body (up to 4000 characters). It counts against the 30 messages in ' +
          '5 minutes and the 20 files an hour from one network (429 after), checked before the file is read; a ' +
          'conversation holds at most 20 files (409 after). 415 for another type, 413 when too big.',
        consumes: ['multipart/form-data'],
        headers: tokenHeaders,
        response: { 201: chatConversationSchema },
      },
    },
    async (request, reply) => {
      const token = request.headers[chatTokenHeader];
      const ip = request.ip;
      // A token that opens nothing, a closed or full conversation and a message or file over its limit
      // are refused before a byte of the file is read.
      const admitted = await withRetryAfter(reply, () =>
        admitVisitorMessage(deps, { token, ip, withFile: true }),
      );
      const { body, attachment } = await readChatAttachmentForm(request);
      const conversation = await postVisitorMessage(deps, { token, ip, body, attachment, admitted });
      return reply.status(201).send(conversation);
    },
  );

  routes.get(
    '/conversation/attachments/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Download a file of your conversation (decrypted, as an attachment), by its token',
        headers: tokenHeaders,
        params: z.object({ id: z.uuid() }),
      },
    },
    async (request, reply) => {
      const conversation = await findConversationByToken(deps, request.headers[chatTokenHeader]);
      const file = await readChatAttachment(deps, {
        conversationId: conversation.id,
        attachmentId: request.params.id,
      });
      return sendEvidence(reply, file);
    },
  );

  routes.get(
    '/conversation/events',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Follow your conversation live (server-sent events), by its token',
        description:
          'A `text/event-stream`: `event: chat` with `data: {"kind": "message" | "conversation" | "presence" | ' +
          '"resync", "conversation_id": …}` when a message arrives, the conversation changes (assigned, closed), ' +
          'or staff come online or leave: re-read the conversation then. A `: keepalive` comment every 15 s.',
        headers: tokenHeaders,
      },
    },
    async (request, reply) => {
      const conversation = await findConversationByToken(deps, request.headers[chatTokenHeader]);
      streamServerSentEvents(reply, {
        eventName: 'chat',
        subscribe: (feed) =>
          app.chatEvents.subscribeConversation(conversation.id, { event: feed.send, end: feed.end }),
      });
    },
  );
};

/** A rate-limited visitor is told when to come back, in the header as well as in the error details. */
async function withRetryAfter<T>(reply: FastifyReply, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const retryAfter = error instanceof AppError ? error.details?.retry_after_seconds : undefined;
    if (typeof retryAfter === 'number') reply.header('Retry-After', String(retryAfter));
    throw error;
  }
}
