import { z } from 'zod';
import { disputeEvidenceRules } from '../disputes/dispute.js';
import { multiLineText, singleLineText } from '../text/text-rules.js';
import { replyAddressSchema } from './reply-address.js';

export const chatMessageMaxLength = 4000;
/** The header a visitor's requests carry their conversation token in. */
export const chatTokenHeader = 'x-chat-token';

/** One chat message as the widget and the API take it: 1–4000 characters once trimmed. */
export const chatMessageBodySchema = z.object({
  body: multiLineText()
    .min(1, 'Write a message first')
    .max(chatMessageMaxLength, `A message is at most ${chatMessageMaxLength} characters`),
});
export type ChatMessageBody = z.infer<typeof chatMessageBodySchema>;

/**
 * Files in the chat: the dispute evidence's types (PDF, PNG or JPEG, judged by content) and size,
 * one per message, at most 20 in a conversation.
 */
export const chatAttachmentRules = {
  maxBytes: disputeEvidenceRules.maxBytes,
  contentTypes: disputeEvidenceRules.contentTypes,
  maxPerConversation: 20,
} as const;

/** The text that goes with a file (multipart field `body`): optional, at most 4000 characters once trimmed. */
export const chatAttachmentBodySchema = z.object({
  body: multiLineText()
    .max(chatMessageMaxLength, `A message is at most ${chatMessageMaxLength} characters`)
    .default(''),
});

/** Opening a conversation: the address support answers to, and the first message. */
export const newChatConversationSchema = chatMessageBodySchema.extend({ email: replyAddressSchema });
export type NewChatConversationInput = z.input<typeof newChatConversationSchema>;

export const chatStatuses = ['open', 'closed'] as const;
/** `live`: answered in the widget; `email`: opened while no one was online, answered by e-mail. */
export const chatModes = ['live', 'email'] as const;

/** A file sent with a message; its bytes come from the conversation's attachment route. */
export const chatAttachmentSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int(),
});
export type ChatAttachment = z.infer<typeof chatAttachmentSchema>;

export const chatMessageSchema = z.object({
  id: z.uuid(),
  author: z.enum(['visitor', 'staff']),
  body: z.string().describe('Empty when the message is only a file'),
  attachment: chatAttachmentSchema.nullable(),
  created_at: z.string(),
  emailed: z.boolean().describe('A staff answer sent to the visitor by e-mail'),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** What the visitor sees of their conversation (by its token). */
export const chatConversationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  status: z.enum(chatStatuses),
  mode: z.enum(chatModes),
  staff_online: z.boolean(),
  created_at: z.string(),
  messages: z.array(chatMessageSchema),
});
export type ChatConversation = z.infer<typeof chatConversationSchema>;

/** A new conversation: its token is shown once; the browser keeps it. */
export const openedChatConversationSchema = z.object({
  token: z.string().describe('Send it as the X-Chat-Token header of the conversation’s requests'),
  conversation: chatConversationSchema,
});
export type OpenedChatConversation = z.infer<typeof openedChatConversationSchema>;

export const chatStatusSchema = z.object({ staff_online: z.boolean() });

/** A conversation in the staff console's list. */
export const staffChatSummarySchema = z.object({
  id: z.uuid(),
  email: z.string(),
  user_id: z.uuid().nullable(),
  status: z.enum(chatStatuses),
  mode: z.enum(chatModes),
  assigned_to: z.uuid().nullable(),
  assigned_email: z.string().nullable(),
  last_message: z.string().nullable(),
  last_message_at: z.string(),
  created_at: z.string(),
});
export type StaffChatSummary = z.infer<typeof staffChatSummarySchema>;

export const staffChatMessageSchema = chatMessageSchema.extend({
  author_email: z.string().nullable().describe('The staff member who wrote it'),
});
export const staffChatConversationSchema = staffChatSummarySchema.extend({
  closed_at: z.string().nullable(),
  messages: z.array(staffChatMessageSchema),
});
export type StaffChatConversation = z.infer<typeof staffChatConversationSchema>;

export const cannedReplyInputSchema = z.object({
  title: singleLineText().min(1, 'Give the reply a title').max(80, 'Use at most 80 characters'),
  body: multiLineText()
    .min(1, 'Write the reply')
    .max(chatMessageMaxLength, `A reply is at most ${chatMessageMaxLength} characters`),
});
export type CannedReplyInput = z.input<typeof cannedReplyInputSchema>;
export const cannedReplySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string(),
  created_at: z.string(),
});
export type CannedReply = z.infer<typeof cannedReplySchema>;

/**
 * What a chat stream says changed: `message` (a new message), `conversation` (assigned, closed,
 * opened), `presence` (staff came online or went away: visitors only), `resync` (anything).
 */
export const chatStreamEventSchema = z.object({
  kind: z.enum(['message', 'conversation', 'presence', 'resync']),
  conversation_id: z.uuid().nullable(),
});
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;
