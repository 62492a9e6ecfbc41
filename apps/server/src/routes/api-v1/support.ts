import { AppError, contactMessageSchema, supportPriorities, supportTicketSchema } from '@covenant/domain';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticatePrincipal } from '../../api/authenticate-principal.js';
import { createAuthDeps } from '../../auth/create-auth-deps.js';
import { submitContactMessage } from '../../support/submit-contact-message.js';
import { submitSupportTicket } from '../../support/submit-support-ticket.js';
import { createSupportDeps } from '../../support/support-deps.js';
import type { SupportReceipt } from '../../support/support-receipt.js';

const receiptSchema = z.object({
  reference: z.string().describe('The reference to quote, e.g. CNT-2026-000123 or TKT-2026-000045'),
  priority: z.enum(supportPriorities),
  response_target_hours: z.number().int(),
  confirmation_sent: z.boolean(),
});

/**
 * `POST /api/v1/support/contact` and `/tickets`: public forms, validated with the same schemas as the
 * web forms. A Bearer token is optional and links the message to the signed-in user.
 */
export const apiV1SupportRoutes: FastifyPluginAsync = async (app) => {
  const authDeps = createAuthDeps(app);
  const deps = createSupportDeps(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // No token: an anonymous visitor. A token that does not authenticate: 401, so the client signs in again.
  const senderOf = async (authorization: string | undefined) =>
    authorization ? (await authenticatePrincipal(authDeps, authorization)).userId : undefined;

  routes.post(
    '/contact',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Send a message through the contact form; answers with its reference',
        body: contactMessageSchema,
        response: { 201: receiptSchema },
      },
    },
    async (request, reply) => {
      const userId = await senderOf(request.headers.authorization);
      const receipt = await withRetryAfter(reply, () =>
        submitContactMessage(deps, { message: request.body, ip: request.ip, userId }),
      );
      return reply.status(201).send(receipt);
    },
  );

  routes.post(
    '/tickets',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Support'],
        summary: 'Open a support ticket; answers with its reference',
        body: supportTicketSchema,
        response: { 201: receiptSchema },
      },
    },
    async (request, reply) => {
      const userId = await senderOf(request.headers.authorization);
      const receipt = await withRetryAfter(reply, () =>
        submitSupportTicket(deps, { ticket: request.body, ip: request.ip, userId }),
      );
      return reply.status(201).send(receipt);
    },
  );
};

/** A rate-limited sender is told when to come back, in the header as well as in the error details. */
async function withRetryAfter(reply: FastifyReply, submit: () => Promise<SupportReceipt>) {
  try {
    return await submit();
  } catch (error) {
    const retryAfter = error instanceof AppError ? error.details?.retry_after_seconds : undefined;
    if (typeof retryAfter === 'number') reply.header('Retry-After', String(retryAfter));
    throw error;
  }
}
