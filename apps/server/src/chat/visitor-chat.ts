import { createHash, randomBytes } from 'node:crypto';
import { schema } from '@covenant/db';
import {
  AppError,
  type ChatConversation,
  type ChatMessage,
  type OpenedChatConversation,
} from '@covenant/domain';
import { asc, eq } from 'drizzle-orm';
import { networkOfAddress } from '../auth/network-of-address.js';
import type { FileUpload } from '../files/read-upload-form.js';
import {
  checkChatAttachment,
  ensureRoomForFile,
  presentChatAttachment,
  withStoredChatAttachment,
} from './chat-attachments.js';
import type { ChatDeps } from './chat-deps.js';
import { enforceChatRateLimit } from './enforce-chat-rate-limit.js';
import { isStaffOnline } from './staff-presence.js';

export type ConversationRow = typeof schema.chatConversations.$inferSelect;
type MessageRow = typeof schema.chatMessages.$inferSelect & {
  file: { id: string; filename: string; contentType: string; size: number } | null;
};

/** 32 random bytes, base64url: what a visitor's browser keeps. Only its SHA-256 is stored. */
export const chatTokenPattern = /^[A-Za-z0-9_-]{43}$/;

export function hashChatToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function presentChatMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    author: row.author,
    body: row.body,
    attachment: row.file ? presentChatAttachment(row.file) : null,
    created_at: row.createdAt.toISOString(),
    emailed: row.emailedAt !== null,
  };
}

export async function listChatMessages(
  deps: Pick<ChatDeps, 'db'>,
  conversationId: string,
): Promise<MessageRow[]> {
  const rows = await deps.db
    .select({
      message: schema.chatMessages,
      file: {
        id: schema.storedFiles.id,
        filename: schema.storedFiles.filename,
        contentType: schema.storedFiles.contentType,
        size: schema.storedFiles.size,
      },
    })
    .from(schema.chatMessages)
    .leftJoin(schema.storedFiles, eq(schema.storedFiles.id, schema.chatMessages.fileId))
    .where(eq(schema.chatMessages.conversationId, conversationId))
    .orderBy(asc(schema.chatMessages.createdAt), asc(schema.chatMessages.id));
  return rows.map((row) => ({ ...row.message, file: row.file }));
}

/** What a list shows of a message: its text, or the name of the file it only carries. */
export function previewOfMessage(message: Pick<MessageRow, 'body' | 'file'>): string {
  return message.body || (message.file ? `File: ${message.file.filename}` : '');
}

async function presentForVisitor(
  deps: Pick<ChatDeps, 'db' | 'now' | 'presenceWindowSeconds'>,
  row: ConversationRow,
): Promise<ChatConversation> {
  const [messages, staffOnline] = await Promise.all([listChatMessages(deps, row.id), isStaffOnline(deps)]);
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    mode: row.mode,
    staff_online: staffOnline,
    created_at: row.createdAt.toISOString(),
    messages: messages.map(presentChatMessage),
  };
}

/**
 * A visitor (or a signed-in user) opens a conversation with its first message. When no staff member
 * is online it is opened in `email` mode: a ticket, answered by e-mail to the given address.
 */
export async function openChatConversation(
  deps: ChatDeps,
  input: { email: string; body: string; ip: string; userId: string | undefined },
): Promise<OpenedChatConversation> {
  await enforceChatRateLimit(
    deps,
    `chat:open:ip:${networkOfAddress(input.ip)}`,
    deps.rateLimits.openPerIp,
    'chats from this network',
  );
  await enforceChatRateLimit(
    deps,
    `chat:open:email:${input.email}`,
    deps.rateLimits.openPerEmail,
    'chats from this email address',
  );
  const token = randomBytes(32).toString('base64url');
  const online = await isStaffOnline(deps);
  const now = deps.now();
  const conversation = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.chatConversations)
      .values({
        tokenHash: hashChatToken(token),
        email: input.email,
        userId: input.userId ?? null,
        mode: online ? 'live' : 'email',
        lastMessageAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx
      .insert(schema.chatMessages)
      .values({ conversationId: row!.id, author: 'visitor', body: input.body, createdAt: now });
    return row!;
  });
  return { token, conversation: await presentForVisitor(deps, conversation) };
}

/** The conversation a token opens; any other token (or a made-up one) finds nothing: 404. */
export async function findConversationByToken(
  deps: Pick<ChatDeps, 'db'>,
  token: string,
): Promise<ConversationRow> {
  const [row] = chatTokenPattern.test(token)
    ? await deps.db
        .select()
        .from(schema.chatConversations)
        .where(eq(schema.chatConversations.tokenHash, hashChatToken(token)))
    : [];
  if (!row) throw new AppError('NOT_FOUND', 'No chat conversation for this token; start a new one');
  return row;
}

export async function getVisitorConversation(deps: ChatDeps, token: string): Promise<ChatConversation> {
  return presentForVisitor(deps, await findConversationByToken(deps, token));
}

/**
 * What a visitor's message must pass before any of it is read: the conversation its token opens,
 * still open, with room for one file more when one comes; the message counted against the
 * conversation's limit and a file against its network's. The file route runs this before reading
 * the upload, so a request refused here has not had its 10 MB read into memory.
 */
export async function admitVisitorMessage(
  deps: ChatDeps,
  input: { token: string; ip: string; withFile: boolean },
): Promise<ConversationRow> {
  const conversation = await findConversationByToken(deps, input.token);
  if (conversation.status === 'closed') {
    throw new AppError('CONFLICT', 'This conversation is closed; start a new one to write again');
  }
  if (input.withFile) await ensureRoomForFile(deps.db, conversation.id, deps.rateLimits.filesPerConversation);
  await enforceChatRateLimit(
    deps,
    `chat:messages:${conversation.id}`,
    deps.rateLimits.messagesPerConversation,
    'messages in this chat',
  );
  if (input.withFile) {
    await enforceChatRateLimit(
      deps,
      `chat:files:ip:${networkOfAddress(input.ip)}`,
      deps.rateLimits.filesPerNetwork,
      'files from this network',
    );
  }
  return conversation;
}

/**
 * The visitor writes again: text, a file, or both. A closed conversation takes no more messages (a new
 * one starts); a live conversation written to while no one is online becomes an e-mail ticket. A file
 * counts against the message limit like any message, and against its network's files; a conversation
 * holds at most 20 files. `admitted` is the conversation `admitVisitorMessage` let through, when the
 * route ran it before reading the file; otherwise it runs here.
 */
export async function postVisitorMessage(
  deps: ChatDeps,
  input: { token: string; ip: string; body: string; attachment?: FileUpload; admitted?: ConversationRow },
): Promise<ChatConversation> {
  const attachment = input.attachment && checkChatAttachment(input.attachment);
  if (!attachment && input.body === '') {
    throw new AppError('VALIDATION_FAILED', 'Write a message or attach a file', {
      issues: [{ path: '/body', message: 'Write a message first' }],
    });
  }
  const conversation =
    input.admitted ??
    (await admitVisitorMessage(deps, {
      token: input.token,
      ip: input.ip,
      withFile: attachment !== undefined,
    }));
  const filesLimit = deps.rateLimits.filesPerConversation;
  const keepMode = conversation.mode === 'email' || (await isStaffOnline(deps));
  const now = deps.now();
  const updated = await withStoredChatAttachment(deps, attachment, conversation.userId, (file) =>
    deps.db.transaction(async (tx) => {
      if (file) await ensureRoomForFile(tx, conversation.id, filesLimit, { lock: true });
      await tx.insert(schema.chatMessages).values({
        conversationId: conversation.id,
        author: 'visitor',
        body: input.body,
        fileId: file?.id ?? null,
        createdAt: now,
      });
      const [row] = await tx
        .update(schema.chatConversations)
        .set({ lastMessageAt: now, updatedAt: now, ...(keepMode ? {} : { mode: 'email' as const }) })
        .where(eq(schema.chatConversations.id, conversation.id))
        .returning();
      return row!;
    }),
  );
  return presentForVisitor(deps, updated);
}
