import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import { presentSupportMessageSummary, type SupportMessageSummary } from './present-support-message.js';
import type { SupportDeps } from './support-deps.js';

export interface SupportInboxQuery {
  status?: schema.SupportStatus | undefined;
  kind?: schema.SupportKind | undefined;
  limit: number;
  /** The id of the last message of the previous page (cursor pagination, newest first). */
  startingAfter?: string | undefined;
}

/** The staff inbox, newest first, filtered by status and kind, one page at a time. */
export async function listSupportMessages(
  deps: Pick<SupportDeps, 'db'>,
  query: SupportInboxQuery,
): Promise<{ data: SupportMessageSummary[]; has_more: boolean }> {
  const { supportMessages: messages } = schema;
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(messages.status, query.status));
  if (query.kind) conditions.push(eq(messages.kind, query.kind));
  if (query.startingAfter) {
    const [cursor] = await deps.db
      .select({ id: messages.id, createdAt: messages.createdAt })
      .from(messages)
      .where(eq(messages.id, query.startingAfter));
    if (!cursor) throw new AppError('VALIDATION_FAILED', 'starting_after names no message');
    conditions.push(
      or(
        lt(messages.createdAt, cursor.createdAt),
        and(eq(messages.createdAt, cursor.createdAt), lt(messages.id, cursor.id)),
      )!,
    );
  }
  // One row more than asked says whether another page follows.
  const rows = await deps.db
    .select()
    .from(messages)
    .where(and(...conditions))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(query.limit + 1);
  return {
    data: rows.slice(0, query.limit).map(presentSupportMessageSummary),
    has_more: rows.length > query.limit,
  };
}
