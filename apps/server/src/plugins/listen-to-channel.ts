import type { Database, DatabaseListener } from '@covenant/db';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';

export interface ChannelListener {
  start(): Promise<void>;
  stop(): Promise<void>;
}

const retryDelaysMs = [1_000, 2_000, 5_000, 10_000];

/**
 * This process's one database listener on `channel`, each notification parsed by `schema` (an
 * unreadable one is logged and dropped). The app starts even while the database is down (readiness
 * reports it): the listener keeps trying in the background, and `reconnected` is called once it is
 * back, as after any reconnection, so streams can refresh what they may have missed.
 */
export function listenToChannel<T>(
  database: Pick<Database, 'listen'>,
  logger: FastifyBaseLogger,
  options: {
    channel: string;
    /** What the listener is called in the logs ("deal event", "chat event"). */
    name: string;
    schema: z.ZodType<T>;
    notified(notification: T): void;
    reconnected(): void;
  },
): ChannelListener {
  const { channel, name, schema } = options;
  let listener: DatabaseListener | undefined;
  let stopped = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const notified = (payload: string) => {
    const parsed = schema.safeParse(safeJson(payload));
    if (!parsed.success) {
      logger.warn({ payload }, `unreadable ${name} notification`);
      return;
    }
    options.notified(parsed.data);
  };
  const reconnected = () => {
    logger.info(`${name} listener reconnected; streams asked to refresh`);
    options.reconnected();
  };

  const startListening = async (): Promise<void> => {
    try {
      const opened = await database.listen(channel, notified, reconnected);
      if (stopped) {
        await opened.close();
        return;
      }
      listener = opened;
      if (attempt > 0) reconnected();
      attempt = 0;
    } catch (error) {
      const delay = retryDelaysMs[Math.min(attempt, retryDelaysMs.length - 1)];
      attempt += 1;
      logger.warn({ err: error, retryInMs: delay }, `${name} listener could not start`);
      retry = setTimeout(() => void startListening(), delay);
      retry.unref();
    }
  };

  return {
    start: async () => {
      stopped = false;
      await startListening();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      await listener?.close();
      listener = undefined;
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
