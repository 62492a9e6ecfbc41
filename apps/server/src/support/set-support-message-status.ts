import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { getSupportMessage } from './get-support-message.js';
import type { SupportMessageDetail } from './present-support-message.js';
import type { SupportDeps } from './support-deps.js';

/** Staff move a message between open, in progress, resolved and closed, in any direction (a reopen). */
export async function setSupportMessageStatus(
  deps: Pick<SupportDeps, 'db' | 'now'>,
  input: { id: string; status: schema.SupportStatus },
): Promise<SupportMessageDetail> {
  const updated = await deps.db
    .update(schema.supportMessages)
    .set({ status: input.status, updatedAt: deps.now() })
    .where(eq(schema.supportMessages.id, input.id))
    .returning({ id: schema.supportMessages.id });
  if (updated.length === 0) throw new AppError('NOT_FOUND', 'No support message with this id');
  return getSupportMessage(deps, input.id);
}
