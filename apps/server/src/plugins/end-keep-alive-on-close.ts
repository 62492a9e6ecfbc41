import type { FastifyInstance } from 'fastify';

/**
 * Once the server starts closing, every answer still in flight also closes its connection. Without
 * this a browser's keep-alive connection, idle only after the close began, would hold the shutdown
 * open until the client hung up.
 */
export function endKeepAliveOnClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
