import { schema } from '@covenant/db';
import { sql } from 'drizzle-orm';
import { formatSupportReference } from './format-support-reference.js';
import type { SupportDeps } from './support-deps.js';

export type NewSupportMessage = Omit<
  typeof schema.supportMessages.$inferInsert,
  'id' | 'reference' | 'number' | 'status' | 'createdAt' | 'updatedAt'
>;

const sequences = {
  contact: 'support_contact_reference_seq',
  ticket: 'support_ticket_reference_seq',
} as const;

/** Stores a message or ticket under the next number of its kind's sequence and returns the row. */
export async function recordSupportMessage(
  deps: Pick<SupportDeps, 'db' | 'now'>,
  message: NewSupportMessage,
): Promise<typeof schema.supportMessages.$inferSelect> {
  const receivedAt = deps.now();
  const result = await deps.db.execute<{ value: string }>(
    sql`select nextval(${sequences[message.kind]}::regclass)::text as value`,
  );
  const number = Number(result.rows[0]!.value);
  const [row] = await deps.db
    .insert(schema.supportMessages)
    .values({
      ...message,
      number,
      reference: formatSupportReference(message.kind, receivedAt, number),
      createdAt: receivedAt,
      updatedAt: receivedAt,
    })
    .returning();
  return row!;
}
