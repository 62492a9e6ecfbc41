import { schema } from '@covenant/db';
import { and, eq } from 'drizzle-orm';
import { renderSupportReplyEmail } from '../email/templates/support-reply.js';
import { getSupportMessage } from './get-support-message.js';
import type { SupportMessageDetail } from './present-support-message.js';
import type { SupportDeps } from './support-deps.js';

/**
 * E-mails a staff answer to the sender, then keeps it in the thread. The e-mail goes first: a reply
 * in the thread must mean the sender got it. An open message is now being worked on: in progress.
 */
export async function replyToSupportMessage(
  deps: Pick<SupportDeps, 'db' | 'mailer' | 'now'>,
  input: { id: string; body: string; authorId: string },
): Promise<SupportMessageDetail> {
  const message = await getSupportMessage(deps, input.id);
  await deps.mailer.send(
    renderSupportReplyEmail({
      to: message.email,
      reference: message.reference,
      subject: message.title,
      reply: input.body,
    }),
  );
  // The address is copied into the reply, so the thread still says who answered if the account goes.
  const [author] = await deps.db
    .select({ email: schema.users.email })
    .from(schema.users)
    .where(eq(schema.users.id, input.authorId));
  const now = deps.now();
  await deps.db.insert(schema.supportReplies).values({
    messageId: message.id,
    authorId: input.authorId,
    authorEmail: author?.email ?? 'support',
    body: input.body,
    createdAt: now,
  });
  await deps.db
    .update(schema.supportMessages)
    .set({ status: 'in_progress', updatedAt: now })
    .where(and(eq(schema.supportMessages.id, message.id), eq(schema.supportMessages.status, 'open')));
  return getSupportMessage(deps, input.id);
}
