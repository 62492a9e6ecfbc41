import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { restrictDevRoutes } from '../api/restrict-dev-routes.js';
import { listMailbox, readMailboxMessage } from './read-mailbox.js';
import { renderMailboxList, renderMailboxMessage } from './render-mailbox-pages.js';

const mailboxMessage = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  date: z.date().nullable(),
  text: z.string(),
  html: z.string(),
});

/**
 * The dev mailbox: the e-mail written to the mailbox folder, as pages for a person and as JSON for
 * browser tests and the web app's mailbox page. Registered only when no SMTP server is configured
 * and not in production; it holds every confirmation and password-reset link, so it answers only
 * on this machine or to an admin with a second factor (restrictDevRoutes), and is 404 to others.
 */
export const devMailboxRoutes: FastifyPluginAsyncZod<{ dir: string }> = async (app, options) => {
  app.addHook('onRequest', restrictDevRoutes(app));

  app.get(
    '/dev/mailbox.json',
    {
      config: { devOnly: true },
      schema: { response: { 200: z.object({ messages: z.array(mailboxMessage) }) } },
    },
    async (_request, reply) => {
      return reply.header('cache-control', 'no-store').send({ messages: await listMailbox(options.dir) });
    },
  );

  app.get('/dev/mailbox', { config: { devOnly: true } }, async (_request, reply) => {
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderMailboxList(await listMailbox(options.dir)));
  });

  app.get(
    '/dev/mailbox/:id',
    { config: { devOnly: true }, schema: { params: z.object({ id: z.string() }) } },
    async (request, reply) => {
      const message = await readMailboxMessage(options.dir, request.params.id);
      if (!message) return reply.callNotFound();
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderMailboxMessage(message));
    },
  );
};
