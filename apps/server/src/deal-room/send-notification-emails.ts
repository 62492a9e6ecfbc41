import { type Database, schema } from '@covenant/db';
import { sql } from 'drizzle-orm';
import type { Mailer } from '../email/mailer.js';
import { dealPageUrl, renderDealNotificationEmail } from './render-deal-notification-email.js';

/** At most one "new messages" e-mail per deal and recipient in this time; later ones wait and are batched. */
export const messageEmailIntervalMs = 15 * 60 * 1000;
const batchSize = 50;

export interface NotificationEmailDeps {
  database: Pick<Database, 'db' | 'engine'>;
  mailer: Mailer;
  /** The web app's public address, for the link to the deal. */
  publicUrl: string;
  now: () => Date;
  /** A failed send is retried on the next pass; it is reported here. */
  onSendFailed?: (error: unknown, notificationIds: string[]) => void;
}

type PendingNotification = {
  id: string;
  user_id: string;
  deal_id: string | null;
  kind: string;
  title: string;
  body: string;
  email: string;
};

/**
 * The outbox of deal notifications: e-mails every notification not yet e-mailed, then marks it
 * (`emailed_at`). A transition gets its own e-mail; messages are batched per deal and recipient,
 * at most one e-mail in 15 minutes (the ones written meanwhile wait, then go out together).
 * At-least-once: a crash between sending and marking sends again. On PostgreSQL each batch is held
 * with FOR UPDATE SKIP LOCKED so replicas never pick the same rows; PGlite has a single
 * connection, which must not stay in a transaction while mail is sent, and a single process.
 * Returns how many e-mails went out.
 */
export async function sendNotificationEmails(deps: NotificationEmailDeps): Promise<number> {
  let sent = 0;
  for (;;) {
    const { picked, mailed } =
      deps.database.engine === 'postgres'
        ? await deps.database.db.transaction((tx) => sendBatch(deps, tx, true))
        : await sendBatch(deps, deps.database.db, false);
    sent += mailed;
    if (picked < batchSize) return sent;
  }
}

type Executor = Pick<Database['db'], 'execute'>;

async function sendBatch(
  deps: NotificationEmailDeps,
  executor: Executor,
  lock: boolean,
): Promise<{ picked: number; mailed: number }> {
  const now = deps.now();
  const windowStart = new Date(now.getTime() - messageEmailIntervalMs).toISOString();
  const { notifications, users } = schema;
  const result = await executor.execute<PendingNotification>(sql`
    select n.id, n.user_id, n.deal_id, n.kind, n.title, n.body, u.email
    from ${notifications} n join ${users} u on u.id = n.user_id
    where n.emailed_at is null
      and (n.kind <> 'message' or not exists (
        select 1 from ${notifications} m
        where m.user_id = n.user_id and m.deal_id = n.deal_id and m.kind = 'message'
          and m.emailed_at > ${windowStart}::timestamptz))
    order by n.created_at, n.id
    limit ${batchSize}
    ${lock ? sql`for update of n skip locked` : sql``}`);
  const pending = result.rows;
  let mailed = 0;
  for (const group of groupForEmail(pending)) {
    const ids = group.map((notification) => notification.id);
    try {
      await deps.mailer.send(renderGroup(deps.publicUrl, group));
    } catch (error) {
      deps.onSendFailed?.(error, ids);
      continue;
    }
    mailed += 1;
    await executor.execute(sql`
      update ${notifications} set emailed_at = ${now.toISOString()}::timestamptz
      where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
  }
  return { picked: pending.length, mailed };
}

/** One e-mail per transition; the messages of one deal to one recipient share an e-mail. */
function groupForEmail(pending: PendingNotification[]): PendingNotification[][] {
  const groups: PendingNotification[][] = [];
  const messageGroups = new Map<string, PendingNotification[]>();
  for (const notification of pending) {
    if (notification.kind !== 'message') {
      groups.push([notification]);
      continue;
    }
    const key = `${notification.user_id}:${notification.deal_id}`;
    const group = messageGroups.get(key);
    if (group) group.push(notification);
    else {
      const created = [notification];
      messageGroups.set(key, created);
      groups.push(created);
    }
  }
  return groups;
}

function renderGroup(publicUrl: string, group: PendingNotification[]) {
  const [first] = group as [PendingNotification, ...PendingNotification[]];
  const dealUrl = first.deal_id ? dealPageUrl(publicUrl, first.deal_id) : null;
  if (group.length === 1) {
    return renderDealNotificationEmail({
      to: first.email,
      title: first.title,
      paragraphs: [first.body],
      dealUrl,
    });
  }
  return renderDealNotificationEmail({
    to: first.email,
    title: `${group.length} new messages`,
    paragraphs: group.map((notification) => notification.body),
    dealUrl,
  });
}
