import { z } from 'zod';
import { multiLineText } from '../text/text-rules.js';

/** Who wrote a message in a deal room: one of the parties, or a mediator during a dispute. */
export const dealRoomRoles = ['buyer', 'seller', 'mediator'] as const;
export type DealRoomRole = (typeof dealRoomRoles)[number];

export const dealMessageMaxLength = 4000;

/** A message as the form and the API take it: 1–4000 characters once trimmed. */
export const newDealMessageSchema = z.object({
  body: multiLineText()
    .min(1, 'Write a message first')
    .max(dealMessageMaxLength, `A message is at most ${dealMessageMaxLength} characters`),
});
export type NewDealMessage = z.infer<typeof newDealMessageSchema>;

export const dealMessageSchema = z.object({
  id: z.uuid(),
  author_id: z.uuid(),
  author_role: z.enum(dealRoomRoles),
  author_name: z.string().nullable().describe('The author’s username'),
  body: z.string(),
  created_at: z.string(),
});
export type DealMessage = z.infer<typeof dealMessageSchema>;

/** A page of a deal's messages, oldest first; `next_cursor` fetches the next (newer) page. */
export const dealMessagePageSchema = z.object({
  data: z.array(dealMessageSchema),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export type DealMessagePage = z.infer<typeof dealMessagePageSchema>;

/** What the deal's event stream says on each change: an audit entry (a step) or a new message. */
/**
 * What the deal stream says changed: an audit entry (`audit`), a message (`message`), the escrow
 * (`escrow`: a leg, deposit, payout or approval), or anything (`resync`, after the server lost track).
 */
export const dealStreamEventSchema = z.object({ kind: z.enum(['audit', 'message', 'escrow', 'resync']) });
export type DealStreamEvent = z.infer<typeof dealStreamEventSchema>;

export const userNotificationSchema = z.object({
  id: z.uuid(),
  deal_id: z.uuid().nullable(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type UserNotification = z.infer<typeof userNotificationSchema>;

/** The caller's notifications, newest first, with how many are unread in all. */
export const userNotificationPageSchema = z.object({
  data: z.array(userNotificationSchema),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
  unread_count: z.number().int(),
});
export type UserNotificationPage = z.infer<typeof userNotificationPageSchema>;
