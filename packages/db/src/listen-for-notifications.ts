import type { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { DatabaseListener } from './database.js';

/** Waits before each new attempt of a listening connection that dropped (the last one repeats). */
const listenReconnectDelaysMs = [1_000, 2_000, 5_000, 10_000];

/** What a listener is told: each payload on its channel, and when it listens again after a drop. */
export interface Notified {
  payload(payload: string): void;
  reconnected(): void;
}

/** Channel names go into LISTEN as identifiers; only plain ones are accepted. */
export const channelPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * PostgreSQL: one dedicated connection per listener (a pooled one would be handed to queries),
 * opened again with growing pauses whenever it drops, until the listener is closed.
 */
export async function listenOnPostgres(
  connectionString: string,
  channel: string,
  notified: Notified,
): Promise<DatabaseListener> {
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let retry: NodeJS.Timeout | undefined;

  const open = async (): Promise<void> => {
    const candidate = new pg.Client({ connectionString, application_name: 'covenant-listen' });
    candidate.on('notification', (message) => {
      if (message.channel === channel) notified.payload(message.payload ?? '');
    });
    // A broken connection reports an error and then ends; the end starts the next attempt.
    candidate.on('error', () => {});
    try {
      await candidate.connect();
      await candidate.query(`listen ${channel}`);
    } catch (error) {
      await candidate.end().catch(() => {});
      throw error;
    }
    client = candidate;
    candidate.once('end', () => {
      if (!closed) reconnectLater();
    });
  };
  const reconnectLater = () => {
    const delay = listenReconnectDelaysMs[Math.min(attempt, listenReconnectDelaysMs.length - 1)];
    attempt += 1;
    retry = setTimeout(() => {
      open().then(
        () => {
          attempt = 0;
          if (closed) client?.end().catch(() => {});
          else notified.reconnected();
        },
        () => {
          if (!closed) reconnectLater();
        },
      );
    }, delay);
    retry.unref();
  };

  await open();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}

/**
 * PGlite: its one session LISTENs through the instance's own API, never through the pool's single
 * connection. The session is shared, so a NOTIFY committed by a statement from the pool comes back
 * as a NotificationResponse on that pool connection, which `connect` forwards here (`pooled`); one
 * run through PGlite's own API reaches the callback directly.
 */
export async function listenOnPglite(
  pglite: PGlite,
  channel: string,
  notified: Notified,
  pooled: EventEmitter,
): Promise<DatabaseListener> {
  // LISTEN runs in whatever transaction the shared session is in, and a rollback would undo it.
  while (pglite.isInTransaction()) await new Promise((resolve) => setTimeout(resolve, 10));
  const forward = (payload: string) => notified.payload(payload);
  const unlisten = await pglite.listen(channel, forward);
  pooled.on(channel, forward);
  return {
    close: async () => {
      pooled.off(channel, forward);
      await unlisten().catch(() => {});
    },
  };
}
