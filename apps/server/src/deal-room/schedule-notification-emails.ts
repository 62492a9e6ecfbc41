import type { FastifyBaseLogger } from 'fastify';
import type { DealEventHub } from './deal-event-hub.js';
import { type NotificationEmailDeps, sendNotificationEmails } from './send-notification-emails.js';

/** A pass over the outbox this often catches what the events missed (a restart, a failed send). */
export const notificationEmailSweepMs = 30_000;
/** Events of one transaction (and of a burst) arrive together; one pass serves them all. */
const debounceMs = 200;

export interface NotificationEmailSchedule {
  start(): void;
  /** Stops the timers and waits for a pass that is running. */
  stop(): Promise<void>;
  /** Runs a pass now, or right after the running one; resolves when it is done. */
  runNow(): Promise<void>;
}

/**
 * Sends the notification e-mails shortly after each deal event (debounced) and on a periodic sweep,
 * one pass at a time. The timers do not keep the process alive.
 */
export function scheduleNotificationEmails(
  deps: NotificationEmailDeps & { hub: Pick<DealEventHub, 'onAnyEvent'>; logger: FastifyBaseLogger },
): NotificationEmailSchedule {
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let stopped = false;

  const pass = async () => {
    try {
      const sent = await sendNotificationEmails({
        ...deps,
        onSendFailed: (error, ids) =>
          deps.logger.error(
            { err: error, notifications: ids },
            'notification e-mail not sent; retried later',
          ),
      });
      if (sent > 0) deps.logger.debug({ sent }, 'notification e-mails sent');
    } catch (error) {
      deps.logger.error({ err: error }, 'notification e-mail pass failed');
    }
  };
  const runNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (!running) {
      running = pass().finally(() => {
        running = undefined;
      });
      return running;
    }
    queued ??= running.then(() => {
      queued = undefined;
      return runNow();
    });
    return queued;
  };
  const soon = () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => void runNow(), debounceMs);
    debounce.unref();
  };

  return {
    start: () => {
      stopped = false;
      // Notifications come from audit entries and messages; an escrow row changing sends nothing itself.
      unsubscribe = deps.hub.onAnyEvent((_dealId, kind) => {
        if (kind !== 'escrow') soon();
      });
      sweep = setInterval(() => void runNow(), notificationEmailSweepMs);
      sweep.unref();
      void runNow();
    },
    stop: async () => {
      stopped = true;
      unsubscribe?.();
      clearInterval(sweep);
      clearTimeout(debounce);
      await queued;
      await running;
    },
    runNow,
  };
}
