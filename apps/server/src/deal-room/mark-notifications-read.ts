import { type Db, schema } from '@covenant/db';
import { AppError, type UserNotification } from '@covenant/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { presentNotification } from './list-notifications.js';

/** Marks one of the user's notifications read (again: the first time is kept); another's is NOT_FOUND. */
export async function markNotificationRead(
  deps: { db: Db; now: () => Date },
  userId: string,
  notificationId: string,
): Promise<UserNotification> {
  const { notifications } = schema;
  const [row] = await deps.db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${deps.now().toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)))
    .returning();
  if (!row) throw new AppError('NOT_FOUND', 'Notification not found');
  return presentNotification(row);
}

/** Marks all of the user's unread notifications read; returns how many were. */
export async function markAllNotificationsRead(
  deps: { db: Db; now: () => Date },
  userId: string,
): Promise<number> {
  const { notifications } = schema;
  const rows = await deps.db
    .update(notifications)
    .set({ readAt: deps.now() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}
