import type { Database } from '@covenant/db';
import type { DealStreamEvent } from '@covenant/domain';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { listenToChannel } from '../plugins/listen-to-channel.js';

/** The channel migration 0007's triggers notify after every audit entry and message. */
export const dealEventsChannel = 'deal_events';

export type DealEventKind = DealStreamEvent['kind'];

export interface DealEventSubscriber {
  /** Something happened to the deal ('resync': the listener was away and events may have been missed). */
  event(kind: DealEventKind): void;
  /** The hub is stopping (the server shuts down): end the subscription's stream. */
  end(): void;
}

/**
 * Fans the database's deal notifications out inside this process: to the subscribers of each deal
 * (the deal rooms' event streams) and to whoever follows every deal (the e-mail sender).
 */
export interface DealEventHub {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(dealId: string, subscriber: DealEventSubscriber): () => void;
  /** Called for every deal event, with the deal's id ('resync' after a reconnection comes with null). */
  onAnyEvent(listener: (dealId: string | null, kind: DealEventKind) => void): () => void;
  /** Open subscriptions (for tests and metrics). */
  subscriberCount(): number;
}

const notificationSchema = z.object({ deal_id: z.uuid(), kind: z.enum(['audit', 'message', 'escrow']) });

export function createDealEventHub(
  database: Pick<Database, 'listen'>,
  logger: FastifyBaseLogger,
): DealEventHub {
  const byDeal = new Map<string, Set<DealEventSubscriber>>();
  const anyEvent = new Set<(dealId: string | null, kind: DealEventKind) => void>();
  const deliver = (subscriber: DealEventSubscriber, kind: DealEventKind) => {
    try {
      subscriber.event(kind);
    } catch (error) {
      logger.warn({ err: error }, 'a deal event subscriber failed');
    }
  };
  const channel = listenToChannel(database, logger, {
    channel: dealEventsChannel,
    name: 'deal event',
    schema: notificationSchema,
    notified: ({ deal_id: dealId, kind }) => {
      for (const subscriber of byDeal.get(dealId) ?? []) deliver(subscriber, kind);
      for (const each of anyEvent) each(dealId, kind);
    },
    reconnected: () => {
      for (const subscribers of byDeal.values())
        for (const subscriber of subscribers) deliver(subscriber, 'resync');
      for (const each of anyEvent) each(null, 'resync');
    },
  });

  return {
    start: () => channel.start(),
    stop: async () => {
      for (const subscribers of byDeal.values()) for (const subscriber of subscribers) subscriber.end();
      byDeal.clear();
      anyEvent.clear();
      await channel.stop();
    },
    subscribe: (dealId, subscriber) => {
      let subscribers = byDeal.get(dealId);
      if (!subscribers) {
        subscribers = new Set();
        byDeal.set(dealId, subscribers);
      }
      subscribers.add(subscriber);
      return () => {
        subscribers.delete(subscriber);
        if (subscribers.size === 0 && byDeal.get(dealId) === subscribers) byDeal.delete(dealId);
      };
    },
    onAnyEvent: (each) => {
      anyEvent.add(each);
      return () => anyEvent.delete(each);
    },
    subscriberCount: () => [...byDeal.values()].reduce((count, subscribers) => count + subscribers.size, 0),
  };
}
