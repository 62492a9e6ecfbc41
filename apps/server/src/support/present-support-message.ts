import type { schema } from '@covenant/db';
import { type ContactTopic, contactTopicLabels } from '@covenant/domain';
import { z } from 'zod';

type Row = typeof schema.supportMessages.$inferSelect;

const supportStatuses = ['open', 'in_progress', 'resolved', 'closed'] as const;
export const supportStatusSchema = z.enum(supportStatuses);
export const supportKindSchema = z.enum(['contact', 'ticket']);

export const supportMessageSummarySchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  kind: supportKindSchema,
  status: supportStatusSchema,
  priority: z.enum(['low', 'normal', 'high', 'urgent']),
  email: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  /** The contact form's topic or the ticket's category, as stored (e.g. `escrow`, `technical_issue`). */
  topic: z.string().nullable(),
  category: z.string().nullable(),
  /** A line to list it by: the ticket's subject, or the contact topic's label. */
  title: z.string(),
  preview: z.string(),
  user_id: z.uuid().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const supportReplySchema = z.object({
  id: z.uuid(),
  author_email: z.string(),
  body: z.string(),
  created_at: z.string(),
});

export const supportMessageDetailSchema = supportMessageSummarySchema.extend({
  body: z.string(),
  replies: z.array(supportReplySchema),
});

export type SupportMessageSummary = z.infer<typeof supportMessageSummarySchema>;
export type SupportMessageDetail = z.infer<typeof supportMessageDetailSchema>;

const previewLength = 140;

export function presentSupportMessageSummary(row: Row): SupportMessageSummary {
  const name = [row.firstName, row.lastName].filter(Boolean).join(' ');
  return {
    id: row.id,
    reference: row.reference,
    kind: row.kind,
    status: row.status,
    priority: row.priority,
    email: row.email,
    name: name || null,
    phone: row.phone,
    topic: row.topic,
    category: row.category,
    title: row.subject ?? contactTopicLabels[row.topic as ContactTopic] ?? 'Contact message',
    preview: row.body.length > previewLength ? `${row.body.slice(0, previewLength - 1)}…` : row.body,
    user_id: row.userId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentSupportMessageDetail(
  row: Row,
  replies: (typeof schema.supportReplies.$inferSelect)[],
): SupportMessageDetail {
  return {
    ...presentSupportMessageSummary(row),
    body: row.body,
    replies: replies.map((reply) => ({
      id: reply.id,
      author_email: reply.authorEmail,
      body: reply.body,
      created_at: reply.createdAt.toISOString(),
    })),
  };
}
