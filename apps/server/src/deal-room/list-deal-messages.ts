import { type Db, schema } from '@covenant/db';
import { AppError, type DealMessage, type DealMessagePage, type DealRoomRole } from '@covenant/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DealRoomSeat } from './find-deal-room-seat.js';

export const dealMessagePageSize = 50;

/** The room's messages oldest first, 50 a page; `cursor` is the last message id of the previous page. */
export async function listDealMessages(
  db: Db,
  seat: DealRoomSeat,
  cursor: string | undefined,
): Promise<DealMessagePage> {
  const { dealMessages, profiles } = schema;
  const conditions = [eq(dealMessages.dealId, seat.dealId)];
  if (cursor) {
    const [after] = await db
      .select({ createdAt: dealMessages.createdAt, id: dealMessages.id })
      .from(dealMessages)
      .where(and(eq(dealMessages.id, cursor), eq(dealMessages.dealId, seat.dealId)));
    if (!after) {
      throw new AppError('VALIDATION_FAILED', 'cursor is not a message of this deal', {
        fields: { cursor: 'unknown message' },
      });
    }
    // Row comparison keeps the order total when two messages share a time.
    conditions.push(
      sql`(${dealMessages.createdAt}, ${dealMessages.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      id: dealMessages.id,
      authorId: dealMessages.authorId,
      authorName: profiles.username,
      body: dealMessages.body,
      createdAt: dealMessages.createdAt,
    })
    .from(dealMessages)
    .leftJoin(profiles, eq(profiles.id, dealMessages.authorId))
    .where(and(...conditions))
    .orderBy(asc(dealMessages.createdAt), asc(dealMessages.id))
    .limit(dealMessagePageSize + 1);
  const page = rows.slice(0, dealMessagePageSize).map((row) => presentDealMessage(seat, row));
  const hasMore = rows.length > dealMessagePageSize;
  return { data: page, has_more: hasMore, next_cursor: hasMore ? (page.at(-1)?.id ?? null) : null };
}

export function presentDealMessage(
  seat: Pick<DealRoomSeat, 'buyerId' | 'sellerId'>,
  row: { id: string; authorId: string; authorName: string | null; body: string; createdAt: Date },
): DealMessage {
  return {
    id: row.id,
    author_id: row.authorId,
    author_role: authorRoleOf(seat, row.authorId),
    author_name: row.authorName,
    body: row.body,
    created_at: row.createdAt.toISOString(),
  };
}

function authorRoleOf(seat: Pick<DealRoomSeat, 'buyerId' | 'sellerId'>, authorId: string): DealRoomRole {
  if (authorId === seat.buyerId) return 'buyer';
  if (authorId === seat.sellerId) return 'seller';
  return 'mediator';
}
