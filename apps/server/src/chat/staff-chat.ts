import { schema } from '@covenant/db';
import {
  AppError,
  type CannedReply,
  type StaffChatConversation,
  type StaffChatSummary,
} from '@covenant/domain';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { renderChatReplyEmail } from '../email/templates/chat-reply.js';
import type { FileUpload } from '../files/read-upload-form.js';
import { checkChatAttachment, ensureRoomForFile, withStoredChatAttachment } from './chat-attachments.js';
import type { ChatDeps } from './chat-deps.js';
import { listChatMessages, presentChatMessage, previewOfMessage } from './visitor-chat.js';

type ConversationRow = typeof schema.chatConversations.$inferSelect;

const previewLength = 140;

async function emailsOf(deps: Pick<ChatDeps, 'db'>, ids: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await deps.db
    .select({ id: schema.users.id, email: schema.users.email })
    .from(schema.users)
    .where(inArray(schema.users.id, wanted));
  return new Map(rows.map((row) => [row.id, row.email]));
}

function summarize(
  row: ConversationRow,
  emails: Map<string, string>,
  lastMessage: string | null,
): StaffChatSummary {
  return {
    id: row.id,
    email: row.email,
    user_id: row.userId,
    status: row.status,
    mode: row.mode,
    assigned_to: row.assignedTo,
    assigned_email: row.assignedTo ? (emails.get(row.assignedTo) ?? null) : null,
    last_message:
      lastMessage === null
        ? null
        : lastMessage.length > previewLength
          ? `${lastMessage.slice(0, previewLength)}…`
          : lastMessage,
    last_message_at: row.lastMessageAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/** The console's list: open conversations (or closed ones, the history), latest activity first. */
export async function listStaffConversations(
  deps: Pick<ChatDeps, 'db'>,
  input: { status: 'open' | 'closed'; limit: number },
): Promise<{ data: StaffChatSummary[] }> {
  const rows = await deps.db
    .select({
      conversation: schema.chatConversations,
      // The latest message's text, or the name of the file it only carries (as previewOfMessage says).
      lastMessage: sql<
        string | null
      >`(select coalesce(nullif(m."body", ''), 'File: ' || f."filename", '') from "chat_messages" m left join "stored_files" f on f."id" = m."file_id" where m."conversation_id" = "chat_conversations"."id" order by m."created_at" desc, m."id" desc limit 1)`,
    })
    .from(schema.chatConversations)
    .where(eq(schema.chatConversations.status, input.status))
    .orderBy(desc(schema.chatConversations.lastMessageAt), desc(schema.chatConversations.id))
    .limit(input.limit);
  const emails = await emailsOf(
    deps,
    rows.map((row) => row.conversation.assignedTo),
  );
  return { data: rows.map((row) => summarize(row.conversation, emails, row.lastMessage)) };
}

async function findConversation(deps: Pick<ChatDeps, 'db'>, id: string): Promise<ConversationRow> {
  const [row] = await deps.db
    .select()
    .from(schema.chatConversations)
    .where(eq(schema.chatConversations.id, id));
  if (!row) throw new AppError('NOT_FOUND', 'No chat conversation with this id');
  return row;
}

/** A conversation with its whole history, each staff message signed with its author's address. */
export async function getStaffConversation(
  deps: Pick<ChatDeps, 'db'>,
  id: string,
): Promise<StaffChatConversation> {
  const row = await findConversation(deps, id);
  const messages = await listChatMessages(deps, id);
  const lastMessage = messages.at(-1);
  const emails = await emailsOf(deps, [row.assignedTo, ...messages.map((message) => message.authorId)]);
  return {
    ...summarize(row, emails, (lastMessage && previewOfMessage(lastMessage)) ?? null),
    closed_at: row.closedAt?.toISOString() ?? null,
    messages: messages.map((message) => ({
      ...presentChatMessage(message),
      author_email: message.authorId ? (emails.get(message.authorId) ?? null) : null,
    })),
  };
}

/** The caller takes the conversation (from whoever had it): the console shows who answers it. */
export async function assignConversation(
  deps: Pick<ChatDeps, 'db' | 'now'>,
  input: { id: string; staffId: string },
): Promise<StaffChatConversation> {
  const row = await findConversation(deps, input.id);
  if (row.status === 'closed') throw new AppError('CONFLICT', 'This conversation is closed');
  await deps.db
    .update(schema.chatConversations)
    .set({ assignedTo: input.staffId, updatedAt: deps.now() })
    .where(eq(schema.chatConversations.id, row.id));
  return getStaffConversation(deps, row.id);
}

/**
 * What a staff answer must pass before any of it is read: the conversation, still open, with room for
 * one file more when one comes. The file route runs this before reading the upload.
 */
export async function admitStaffReply(
  deps: Pick<ChatDeps, 'db' | 'rateLimits'>,
  input: { id: string; withFile: boolean },
): Promise<ConversationRow> {
  const row = await findConversation(deps, input.id);
  if (row.status === 'closed') throw new AppError('CONFLICT', 'This conversation is closed');
  if (input.withFile) await ensureRoomForFile(deps.db, row.id, deps.rateLimits.filesPerConversation);
  return row;
}

/**
 * A staff answer: text, a file, or both. In a live conversation it appears in the widget; in an
 * `email` one (opened while no one was online) it is e-mailed first and stored once sent, as support
 * replies are (ADR 006), so the history never shows an answer the visitor did not get. The e-mail
 * names a file but does not carry it: the visitor downloads it in the chat. An unassigned
 * conversation is taken by whoever answers it. `admitted` is the conversation `admitStaffReply` let
 * through, when the route ran it before reading the file; otherwise it runs here.
 */
export async function replyToConversation(
  deps: Pick<ChatDeps, 'db' | 'now' | 'mailer' | 'fileStore' | 'rateLimits'>,
  input: { id: string; staffId: string; body: string; attachment?: FileUpload; admitted?: ConversationRow },
): Promise<StaffChatConversation> {
  const attachment = input.attachment && checkChatAttachment(input.attachment);
  if (!attachment && input.body === '') {
    throw new AppError('VALIDATION_FAILED', 'Write an answer or attach a file', {
      issues: [{ path: '/body', message: 'Write a message first' }],
    });
  }
  const row =
    input.admitted ?? (await admitStaffReply(deps, { id: input.id, withFile: attachment !== undefined }));
  const filesLimit = deps.rateLimits.filesPerConversation;
  await withStoredChatAttachment(deps, attachment, input.staffId, async (file) => {
    let emailedAt: Date | null = null;
    if (row.mode === 'email') {
      const [first] = await deps.db
        .select({ body: schema.chatMessages.body })
        .from(schema.chatMessages)
        .where(and(eq(schema.chatMessages.conversationId, row.id), eq(schema.chatMessages.author, 'visitor')))
        .orderBy(schema.chatMessages.createdAt)
        .limit(1);
      await deps.mailer.send(
        renderChatReplyEmail({
          to: row.email,
          question: first?.body ?? '',
          reply: input.body,
          attachment: file?.filename,
        }),
      );
      emailedAt = deps.now();
    }
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      if (file) await ensureRoomForFile(tx, row.id, filesLimit, { lock: true });
      await tx.insert(schema.chatMessages).values({
        conversationId: row.id,
        author: 'staff',
        authorId: input.staffId,
        body: input.body,
        fileId: file?.id ?? null,
        emailedAt,
        createdAt: now,
      });
      await tx
        .update(schema.chatConversations)
        .set({ lastMessageAt: now, updatedAt: now })
        .where(eq(schema.chatConversations.id, row.id));
      await tx
        .update(schema.chatConversations)
        .set({ assignedTo: input.staffId })
        .where(and(eq(schema.chatConversations.id, row.id), isNull(schema.chatConversations.assignedTo)));
    });
  });
  return getStaffConversation(deps, row.id);
}

/** Ends the conversation; its history stays. Closing a closed one changes nothing. */
export async function closeConversation(
  deps: Pick<ChatDeps, 'db' | 'now'>,
  id: string,
): Promise<StaffChatConversation> {
  const row = await findConversation(deps, id);
  if (row.status !== 'closed') {
    const now = deps.now();
    await deps.db
      .update(schema.chatConversations)
      .set({ status: 'closed', closedAt: now, updatedAt: now })
      .where(eq(schema.chatConversations.id, row.id));
  }
  return getStaffConversation(deps, row.id);
}

function presentCannedReply(row: typeof schema.chatCannedReplies.$inferSelect): CannedReply {
  return { id: row.id, title: row.title, body: row.body, created_at: row.createdAt.toISOString() };
}

export async function listCannedReplies(deps: Pick<ChatDeps, 'db'>): Promise<{ data: CannedReply[] }> {
  const rows = await deps.db
    .select()
    .from(schema.chatCannedReplies)
    .orderBy(schema.chatCannedReplies.title, schema.chatCannedReplies.id);
  return { data: rows.map(presentCannedReply) };
}

export async function createCannedReply(
  deps: Pick<ChatDeps, 'db' | 'now'>,
  input: { title: string; body: string; staffId: string },
): Promise<CannedReply> {
  const [row] = await deps.db
    .insert(schema.chatCannedReplies)
    .values({ title: input.title, body: input.body, createdBy: input.staffId, createdAt: deps.now() })
    .returning();
  return presentCannedReply(row!);
}

export async function deleteCannedReply(deps: Pick<ChatDeps, 'db'>, id: string): Promise<void> {
  const deleted = await deps.db
    .delete(schema.chatCannedReplies)
    .where(eq(schema.chatCannedReplies.id, id))
    .returning({ id: schema.chatCannedReplies.id });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'No canned reply with this id');
}
