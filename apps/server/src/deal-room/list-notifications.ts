import { type Db, schema } from '@covenant/db';
import { AppError, type UserNotification, type UserNotificationPage } from '@covenant/domain';
import { and, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';

export const notificationPageSize = 20;

export interface ListNotificationsQuery {
  /** The last notification id of the previous page. */
  cursor?: string | undefined;
  unread?: boolean | undefined;
}

/** The user's own notifications, newest first, and how many of all of them are unread. */
export async function listNotifications(
  db: Db,
  userId: string,
  query: ListNotificationsQuery,
): Promise<UserNotificationPage> {
  const { notifications } = schema;
  const mine = eq(notifications.userId, userId);
  const conditions: SQL[] = [mine];
  if (query.unread) conditions.push(isNull(notifications.readAt));
  if (query.cursor) {
    const [after] = await db
      .select({ createdAt: notifications.createdAt, id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.id, query.cursor), mine));
    if (!after) {
      throw new AppError('VALIDATION_FAILED', 'cursor is not one of your notifications', {
        fields: { cursor: 'unknown notification' },
      });
    }
    conditions.push(
      sql`(${notifications.createdAt}, ${notifications.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`,
    );
  }
  const [rows, [unread]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(and(...conditions))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(notificationPageSize + 1),
    db
      .select({ count: count() })
      .from(notifications)
      .where(and(mine, isNull(notifications.readAt))),
  ]);
  const data = rows.slice(0, notificationPageSize).map(presentNotification);
  const hasMore = rows.length > notificationPageSize;
  return {
    data,
    has_more: hasMore,
    next_cursor: hasMore ? (data.at(-1)?.id ?? null) : null,
    unread_count: unread?.count ?? 0,
  };
}

export function presentNotification(row: typeof schema.notifications.$inferSelect): UserNotification {
  return {
    id: row.id,
    deal_id: row.dealId,
    kind: row.kind,
    title: row.title,
    body: row.body,
    read_at: row.readAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
