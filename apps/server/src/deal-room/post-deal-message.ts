import { type Db, schema } from '@covenant/db';
import { AppError, type DealMessage } from '@covenant/domain';
import { desc, eq } from 'drizzle-orm';
import type { DealRoomSeat } from './find-deal-room-seat.js';
import { presentDealMessage } from './list-deal-messages.js';

/** Statuses in which the parties can no longer write (the mediator still can, to explain a decision). */
const closedStatuses: readonly schema.DealStatus[] = ['cancelled', 'completed'];
/** How much of a message its notification quotes. */
const quoteLength = 140;

/**
 * Posts a message to the deal room and notifies the other participants: the other party, the
 * mediator of the deal's dispute if one took it, and both parties when the mediator writes. The
 * insert's trigger wakes the live streams at commit.
 */
export async function postDealMessage(
  deps: { db: Db; now: () => Date },
  seat: DealRoomSeat,
  body: string,
): Promise<DealMessage> {
  if (seat.role !== 'mediator' && closedStatuses.includes(seat.status)) {
    throw new AppError('DEAL_NOT_ACTIVE', 'The deal is closed; no more messages can be posted', {
      status: seat.status,
    });
  }
  const now = deps.now();
  const { dealMessages, dealDisputes, profiles, notifications } = schema;
  const [author] = await deps.db
    .select({ username: profiles.username })
    .from(profiles)
    .where(eq(profiles.id, seat.userId));
  const [dispute] = await deps.db
    .select({ mediatorId: dealDisputes.mediatorId })
    .from(dealDisputes)
    .where(eq(dealDisputes.dealId, seat.dealId))
    .orderBy(desc(dealDisputes.createdAt))
    .limit(1);
  const recipients = [seat.buyerId, seat.sellerId, dispute?.mediatorId]
    .filter((id): id is string => Boolean(id) && id !== seat.userId)
    .filter((id, index, all) => all.indexOf(id) === index);
  const name = author?.username ?? (seat.role === 'mediator' ? 'The mediator' : `The ${seat.role}`);
  const quote = body.length > quoteLength ? `${body.slice(0, quoteLength - 1)}…` : body;

  const message = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(dealMessages)
      .values({ dealId: seat.dealId, authorId: seat.userId, body, createdAt: now })
      .returning();
    if (recipients.length > 0) {
      await tx.insert(notifications).values(
        recipients.map((userId) => ({
          userId,
          dealId: seat.dealId,
          kind: 'message',
          title: seat.role === 'mediator' ? 'New message from the mediator' : 'New message',
          body: `${name}: ${quote}`,
          createdAt: now,
        })),
      );
    }
    return inserted!;
  });
  return presentDealMessage(seat, { ...message, authorName: author?.username ?? null });
}
