import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { asc, eq } from 'drizzle-orm';
import { presentSupportMessageDetail, type SupportMessageDetail } from './present-support-message.js';
import type { SupportDeps } from './support-deps.js';

/** One message with its thread of staff replies, oldest reply first. */
export async function getSupportMessage(
  deps: Pick<SupportDeps, 'db'>,
  id: string,
): Promise<SupportMessageDetail> {
  const [row] = await deps.db.select().from(schema.supportMessages).where(eq(schema.supportMessages.id, id));
  if (!row) throw new AppError('NOT_FOUND', 'No support message with this id');
  const replies = await deps.db
    .select()
    .from(schema.supportReplies)
    .where(eq(schema.supportReplies.messageId, id))
    .orderBy(asc(schema.supportReplies.createdAt), asc(schema.supportReplies.id));
  return presentSupportMessageDetail(row, replies);
}
