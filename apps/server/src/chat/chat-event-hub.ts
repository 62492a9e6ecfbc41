import type { Database, DatabaseListener } from '@covenant/db';
import type { ChatStreamEvent } from '@covenant/domain';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';

/** The channel the live chat migration's triggers notify after each message, conversation change and presence change. */
export const chatEventsChannel = 'chat_events';

export type ChatEventSubscriber = {
  event(event: ChatStreamEvent): void;
  /** The hub is stopping (the server shuts down): end the stream. */
  end(): void;
};

/**
 * The deal room's hub (ADR 010) for the live chat: one database listener per process on
 * `chat_events`, fanned out to the streams. A visitor's stream follows one conversation (and hears
 * when staff come online or leave); a staff console's stream follows every conversation.
 */
export interface ChatEventHub {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A visitor's stream: its conversation's events and presence changes. Returns the unsubscribe function. */
  subscribeConversation(conversationId: string, subscriber: ChatEventSubscriber): () => void;
  /** A staff console's stream: every conversation's events. Returns the unsubscribe function. */
  subscribeStaff(subscriber: ChatEventSubscriber): () => void;
  subscriberCount(): number;
}

const retryDelaysMs = [1_000, 2_000, 5_000, 10_000];

const notificationSchema = z.object({
  conversation_id: z.uuid().nullable(),
  kind: z.enum(['message', 'conversation', 'presence']),
});

export function createChatEventHub(
  database: Pick<Database, 'listen'>,
  logger: FastifyBaseLogger,
): ChatEventHub {
  const byConversation = new Map<string, Set<ChatEventSubscriber>>();
  const staff = new Set<ChatEventSubscriber>();
  let listener: DatabaseListener | undefined;
  let stopped = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const deliver = (subscriber: ChatEventSubscriber, event: ChatStreamEvent) => {
    try {
      subscriber.event(event);
    } catch (error) {
      logger.warn({ err: error }, 'a chat event subscriber failed');
    }
  };
  const everyVisitor = function* () {
    for (const subscribers of byConversation.values()) yield* subscribers;
  };
  const notified = (payload: string) => {
    const parsed = notificationSchema.safeParse(safeJson(payload));
    if (!parsed.success) {
      logger.warn({ payload }, 'unreadable chat event notification');
      return;
    }
    // Always written in this order: `kind` first, as the API description shows it.
    const event: ChatStreamEvent = { kind: parsed.data.kind, conversation_id: parsed.data.conversation_id };
    if (event.kind === 'presence') {
      for (const subscriber of everyVisitor()) deliver(subscriber, event);
      return;
    }
    if (event.conversation_id) {
      for (const subscriber of byConversation.get(event.conversation_id) ?? []) deliver(subscriber, event);
    }
    for (const subscriber of staff) deliver(subscriber, event);
  };
  const reconnected = () => {
    logger.info('chat event listener reconnected; streams asked to refresh');
    const event: ChatStreamEvent = { kind: 'resync', conversation_id: null };
    for (const subscriber of [...everyVisitor(), ...staff]) deliver(subscriber, event);
  };

  const startListening = async (): Promise<void> => {
    try {
      const opened = await database.listen(chatEventsChannel, notified, reconnected);
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
      logger.warn({ err: error, retryInMs: delay }, 'chat event listener could not start');
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
      for (const subscriber of [...everyVisitor(), ...staff]) subscriber.end();
      byConversation.clear();
      staff.clear();
      await listener?.close();
      listener = undefined;
    },
    subscribeConversation: (conversationId, subscriber) => {
      let subscribers = byConversation.get(conversationId);
      if (!subscribers) {
        subscribers = new Set();
        byConversation.set(conversationId, subscribers);
      }
      subscribers.add(subscriber);
      return () => {
        subscribers.delete(subscriber);
        if (subscribers.size === 0 && byConversation.get(conversationId) === subscribers) {
          byConversation.delete(conversationId);
        }
      };
    },
    subscribeStaff: (subscriber) => {
      staff.add(subscriber);
      return () => staff.delete(subscriber);
    },
    subscriberCount: () =>
      staff.size + [...byConversation.values()].reduce((count, subscribers) => count + subscribers.size, 0),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
