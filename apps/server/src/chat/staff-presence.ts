import { schema } from '@covenant/db';
import { eq, gt } from 'drizzle-orm';
import type { ChatDeps } from './chat-deps.js';

/** Whether a staff console stream checked in within the presence window, on any replica. */
export async function isStaffOnline(
  deps: Pick<ChatDeps, 'db' | 'now' | 'presenceWindowSeconds'>,
): Promise<boolean> {
  const since = new Date(deps.now().getTime() - deps.presenceWindowSeconds * 1000);
  const [row] = await deps.db
    .select({ id: schema.chatStaffPresence.id })
    .from(schema.chatStaffPresence)
    .where(gt(schema.chatStaffPresence.lastSeenAt, since))
    .limit(1);
  return row !== undefined;
}

/** Records (or refreshes) one open console stream of a staff member. */
export async function markStaffPresent(
  deps: Pick<ChatDeps, 'db' | 'now'>,
  streamId: string,
  userId: string,
): Promise<void> {
  const lastSeenAt = deps.now();
  await deps.db
    .insert(schema.chatStaffPresence)
    .values({ id: streamId, userId, lastSeenAt })
    .onConflictDoUpdate({ target: schema.chatStaffPresence.id, set: { lastSeenAt } });
}

/** The stream closed: that console is gone (the staff member may still have another one open). */
export async function removeStaffPresence(deps: Pick<ChatDeps, 'db'>, streamId: string): Promise<void> {
  await deps.db.delete(schema.chatStaffPresence).where(eq(schema.chatStaffPresence.id, streamId));
}
