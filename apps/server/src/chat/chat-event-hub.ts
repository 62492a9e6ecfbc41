import type { Database } from '@covenant/db';
import type { ChatStreamEvent } from '@covenant/domain';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { listenToChannel } from '../plugins/listen-to-channel.js';

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
  const channel = listenToChannel(database, logger, {
    channel: chatEventsChannel,
    name: 'chat event',
    schema: notificationSchema,
    notified: ({ kind, conversation_id }) => {
      // Always written in this order: `kind` first, as the API description shows it.
      const event: ChatStreamEvent = { kind, conversation_id };
      if (event.kind === 'presence') {
        for (const subscriber of everyVisitor()) deliver(subscriber, event);
        return;
      }
      if (event.conversation_id) {
        for (const subscriber of byConversation.get(event.conversation_id) ?? []) deliver(subscriber, event);
      }
      for (const subscriber of staff) deliver(subscriber, event);
    },
    reconnected: () => {
      const event: ChatStreamEvent = { kind: 'resync', conversation_id: null };
      for (const subscriber of [...everyVisitor(), ...staff]) deliver(subscriber, event);
    },
  });

  return {
    start: () => channel.start(),
    stop: async () => {
      for (const subscriber of [...everyVisitor(), ...staff]) subscriber.end();
      byConversation.clear();
      staff.clear();
      await channel.stop();
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
