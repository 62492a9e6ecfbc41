import type { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';

const closedStatuses: readonly schema.DealStatus[] = ['completed', 'cancelled', 'disputed'];

/**
 * Travel is arranged only for a deal whose terms require a meeting, and only while the deal goes
 * on: a completed or cancelled deal has nothing left to meet for, and a disputed one waits for the
 * mediator before anything more is spent on it.
 */
export function checkTravelDeal(deal: Pick<typeof schema.deals.$inferSelect, 'meetingRequired' | 'status'>) {
  if (!deal.meetingRequired) {
    throw new AppError(
      'MEETING_NOT_REQUIRED',
      'The terms of this deal do not require a meeting, so there is no travel',
    );
  }
  if (closedStatuses.includes(deal.status)) {
    throw new AppError('DEAL_NOT_ACTIVE', `Travel cannot be arranged for a deal that is ${deal.status}`, {
      status: deal.status,
    });
  }
}
