import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../build-test-app.js';
import { listMailbox } from '../../email/read-mailbox.js';
import { createTestTrader, type TestTrader } from '../../testing/create-test-trader.js';
import { openEventStream } from '../../testing/open-event-stream.js';

let database: Database;
let testApp: TestApp;
let app: FastifyInstance;
let baseUrl: string;
let staff: TestTrader;
let trader: TestTrader;
let mediator: TestTrader;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database });
  app = testApp.app;
  // A real server for the stream: inject would buffer it until it ends.
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  staff = await createTestTrader(app, { roles: ['admin'] });
  trader = await createTestTrader(app);
  mediator = await createTestTrader(app, { roles: ['mediator'] });
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

/** A PNG's signature followed by random bytes: a PNG by its first bytes, different every time. */
const png = (size = 2048) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size)]);
const pdf = () => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1024)]);

const boundary = 'chat-attachments-boundary';
interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  content: Buffer | string;
}
function form(parts: Part[]): Buffer {
  return Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"` +
          (part.filename === undefined ? '' : `; filename="${part.filename}"`) +
          `\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}\r\n`,
      ),
      Buffer.from(part.content),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
}
const file = (filename: string, content: Buffer, contentType = 'image/png'): Part => ({
  name: 'file',
  filename,
  contentType,
  content,
});

let visitorNumber = 0;
async function openConversation(options: { bearer?: string } = {}) {
  visitorNumber += 1;
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/chat/conversations',
    remoteAddress: `203.0.113.${visitorNumber}`,
    headers: options.bearer ? { authorization: `Bearer ${options.bearer}` } : {},
    payload: { email: `files-${visitorNumber}@example.com`, body: 'I have a question about a receipt' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { token: string; conversation: { id: string; mode: string } };
}

/** Each upload from a network of its own unless one is given: the per-network limit is tested on its own. */
let uploadNumber = 0;
function sendAsVisitor(token: string, parts: Part[], remoteAddress?: string) {
  uploadNumber += 1;
  return app.inject({
    method: 'POST',
    url: '/api/v1/chat/conversation/attachments',
    remoteAddress: remoteAddress ?? `2001:db8:${uploadNumber.toString(16)}::1`,
    headers: { 'x-chat-token': token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: form(parts),
  });
}

function sendAsStaff(conversationId: string, parts: Part[], token = staff.token) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/staff/chat/conversations/${conversationId}/attachments`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: form(parts),
  });
}

const downloadAsVisitor = (token: string, attachmentId: string) =>
  app.inject({
    method: 'GET',
    url: `/api/v1/chat/conversation/attachments/${attachmentId}`,
    headers: { 'x-chat-token': token },
  });
const downloadAsStaff = (conversationId: string, attachmentId: string, token = staff.token) =>
  app.inject({
    method: 'GET',
    url: `/api/v1/staff/chat/conversations/${conversationId}/attachments/${attachmentId}`,
    headers: { authorization: `Bearer ${token}` },
  });

/** The console's stream removes its presence row as it ends; the next test wants nobody online. */
async function waitUntilStaffOffline(): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const status = await app.inject({ method: 'GET', url: '/api/v1/chat/status' });
    if (status.json().staff_online === false) return;
    if (Date.now() > deadline) throw new Error('staff still online');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface SentMessage {
  author: string;
  body: string;
  attachment: { id: string; filename: string; content_type: string; size: number } | null;
}
const lastMessage = (response: { json(): unknown }) =>
  (response.json() as { messages: SentMessage[] }).messages.at(-1)!;

describe('files in the live chat', () => {
  it('carries a visitor’s file to the console live, stored encrypted, and both sides download its exact bytes', async () => {
    const staffStream = await openEventStream(`${baseUrl}/api/v1/staff/chat/events`, {
      authorization: `Bearer ${staff.token}`,
    });
    await staffStream.waitFor('retry: 3000\n\n');
    const { token, conversation } = await openConversation();
    const content = png();

    const sent = await sendAsVisitor(token, [
      { name: 'body', content: 'Here is the receipt' },
      file('../../receipt May.png', content),
    ]);
    expect(sent.statusCode, sent.body).toBe(201);
    const message = lastMessage(sent);
    expect(message).toMatchObject({
      author: 'visitor',
      body: 'Here is the receipt',
      attachment: { filename: 'receipt May.png', content_type: 'image/png', size: content.length },
    });
    const attachmentId = message.attachment!.id;
    await staffStream.waitFor(
      `event: chat\ndata: ${JSON.stringify({ kind: 'message', conversation_id: conversation.id })}\n\n`,
    );
    await staffStream.close();
    await waitUntilStaffOffline();

    const inConsole = await app.inject({
      method: 'GET',
      url: `/api/v1/staff/chat/conversations/${conversation.id}`,
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(lastMessage(inConsole).attachment).toEqual(message.attachment);

    for (const download of [
      await downloadAsVisitor(token, attachmentId),
      await downloadAsStaff(conversation.id, attachmentId),
    ]) {
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(content)).toBe(true);
      expect(download.headers['content-type']).toBe('image/png');
      expect(download.headers['content-disposition']).toBe('attachment; filename="receipt May.png"');
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['cache-control']).toBe('private, no-store');
    }

    const [row] = await database.db
      .select()
      .from(schema.storedFiles)
      .where(eq(schema.storedFiles.id, attachmentId));
    expect(row).toMatchObject({ purpose: 'chat_attachment', ownerId: null, size: content.length });
    const onDisk = await readFile(join(app.config.dataDir, 'files', attachmentId));
    expect(onDisk.length).toBe(content.length);
    expect(onDisk.equals(content)).toBe(false);
    expect(onDisk.includes(content.subarray(8, 40))).toBe(false);
  });

  it('lets staff answer with a file alone, which the visitor downloads; an e-mailed answer names it', async () => {
    // No console is online: the conversation is an e-mail ticket.
    const { token, conversation } = await openConversation();
    expect(conversation.mode).toBe('email');
    const content = pdf();
    const answered = await sendAsStaff(conversation.id, [file('statement.pdf', content, 'application/pdf')]);
    expect(answered.statusCode, answered.body).toBe(201);
    expect(answered.json()).toMatchObject({ assigned_to: staff.id, last_message: 'File: statement.pdf' });
    const message = lastMessage(answered);
    expect(message).toMatchObject({
      author: 'staff',
      body: '',
      attachment: { filename: 'statement.pdf', content_type: 'application/pdf', size: content.length },
    });

    const seen = await app.inject({
      method: 'GET',
      url: '/api/v1/chat/conversation',
      headers: { 'x-chat-token': token },
    });
    expect(lastMessage(seen)).toMatchObject({ emailed: true, attachment: message.attachment });
    const download = await downloadAsVisitor(token, message.attachment!.id);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(content)).toBe(true);

    const [mail] = (await listMailbox(testApp.mailboxDir)).filter((sent) =>
      sent.to.includes(`files-${visitorNumber}@example.com`),
    );
    expect(mail!.text).toContain('“statement.pdf”');
    expect(mail!.text).toContain('files are not sent by e-mail');
    expect(mail!.text).not.toContain('%PDF');

    const [row] = await database.db
      .select()
      .from(schema.storedFiles)
      .where(eq(schema.storedFiles.id, message.attachment!.id));
    expect(row).toMatchObject({ purpose: 'chat_attachment', ownerId: staff.id });
  });

  it('records a signed-in user’s file as theirs', async () => {
    const { token } = await openConversation({ bearer: trader.token });
    const sent = await sendAsVisitor(token, [file('id.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]))]);
    expect(sent.statusCode, sent.body).toBe(201);
    const message = lastMessage(sent);
    expect(message).toMatchObject({ body: '', attachment: { content_type: 'image/jpeg' } });
    const [row] = await database.db
      .select({ ownerId: schema.storedFiles.ownerId })
      .from(schema.storedFiles)
      .where(eq(schema.storedFiles.id, message.attachment!.id));
    expect(row!.ownerId).toBe(trader.id);
  });
});

describe('files refused', () => {
  it('refuses another type by its content with 415, and a file over 10 MB with 413, storing nothing', async () => {
    const { token, conversation } = await openConversation();
    const before = await database.db.select({ id: schema.storedFiles.id }).from(schema.storedFiles);

    const script = await sendAsVisitor(token, [file('photo.png', Buffer.from('<script>alert(1)</script>'))]);
    expect(script.statusCode).toBe(415);
    expect(script.json().error).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Attach a PDF, PNG or JPEG file',
      details: { issues: [{ path: '/file', message: 'photo.png is not a PDF, PNG or JPEG file' }] },
    });
    const staffScript = await sendAsStaff(conversation.id, [file('a.pdf', Buffer.from('GIF89a'))]);
    expect(staffScript.statusCode).toBe(415);

    const large = await sendAsVisitor(token, [file('large.png', png(10 * 1024 * 1024))]);
    expect(large.statusCode).toBe(413);
    expect(large.json().error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'A file must be at most 10 MB',
    });
    const staffLarge = await sendAsStaff(conversation.id, [file('large.png', png(10 * 1024 * 1024))]);
    expect(staffLarge.statusCode).toBe(413);

    const after = await database.db.select({ id: schema.storedFiles.id }).from(schema.storedFiles);
    expect(after).toHaveLength(before.length);
  });

  it('refuses forms without one file, with another file field, or with too long a text: 400, never a 500', async () => {
    const { token } = await openConversation();
    const cases: Part[][] = [
      [],
      [{ name: 'body', content: 'Only text' }],
      [file('a.png', png()), file('b.png', png())],
      [{ name: 'evidence', filename: 'a.png', contentType: 'image/png', content: png() }],
      [{ name: 'body', content: 'x'.repeat(4001) }, file('a.png', png())],
    ];
    for (const parts of cases) {
      const response = await sendAsVisitor(token, parts);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
    const json = await app.inject({
      method: 'POST',
      url: '/api/v1/chat/conversation/attachments',
      headers: { 'x-chat-token': token },
      payload: { body: 'not a form' },
    });
    expect(json.statusCode).toBe(400);
  });

  it('lets nobody but the conversation’s visitor and support staff reach its files', async () => {
    const owner = await openConversation();
    const stranger = await openConversation();
    const sent = await sendAsVisitor(owner.token, [file('private.png', png())]);
    const attachmentId = lastMessage(sent).attachment!.id;
    const strangerSent = await sendAsVisitor(stranger.token, [file('other.png', png())]);
    const strangerFile = lastMessage(strangerSent).attachment!.id;

    // Another visitor's token, a made-up one, or none at all opens nothing.
    expect((await downloadAsVisitor(stranger.token, attachmentId)).statusCode).toBe(404);
    expect((await downloadAsVisitor(owner.token, strangerFile)).statusCode).toBe(404);
    expect((await downloadAsVisitor('A'.repeat(43), attachmentId)).statusCode).toBe(404);
    const bearerOnly = await app.inject({
      method: 'GET',
      url: `/api/v1/chat/conversation/attachments/${attachmentId}`,
      headers: { authorization: `Bearer ${trader.token}` },
    });
    expect(bearerOnly.statusCode).toBe(400);
    // A file is reached only through its own conversation, and only by support staff.
    expect((await downloadAsStaff(stranger.conversation.id, attachmentId)).statusCode).toBe(404);
    expect((await downloadAsStaff(owner.conversation.id, attachmentId, trader.token)).statusCode).toBe(403);
    expect((await downloadAsStaff(owner.conversation.id, attachmentId, mediator.token)).statusCode).toBe(403);
    const uploadByTrader = await sendAsStaff(owner.conversation.id, [file('x.png', png())], trader.token);
    expect(uploadByTrader.statusCode).toBe(403);
    // Writing into a conversation needs its token too.
    const foreign = await sendAsVisitor('B'.repeat(43), [file('x.png', png())]);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('limits on files', () => {
  it('counts files against the messages limit, and takes at most 20 files in a conversation', async () => {
    const { token, conversation } = await openConversation();
    for (let index = 0; index < 19; index += 1) {
      const sent = await sendAsVisitor(token, [file(`page-${index}.png`, png(64))]);
      expect(sent.statusCode, sent.body).toBe(201);
    }
    const twentieth = await sendAsStaff(conversation.id, [file('answer.png', png(64))]);
    expect(twentieth.statusCode, twentieth.body).toBe(201);
    const over = await sendAsVisitor(token, [file('page-20.png', png(64))]);
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toMatchObject({
      code: 'CONFLICT',
      message: 'A conversation holds at most 20 files; start a new one to send more',
    });
    expect((await sendAsStaff(conversation.id, [file('more.png', png(64))])).statusCode).toBe(409);
    // Refused before the file is read: a file over 10 MB is answered 409 too, not 413.
    const big = () => [file('big.png', png(10 * 1024 * 1024))];
    expect((await sendAsVisitor(token, big())).statusCode).toBe(409);
    expect((await sendAsStaff(conversation.id, big())).statusCode).toBe(409);

    const chatty = await openConversation();
    for (let index = 0; index < 30; index += 1) {
      const written =
        index % 2 === 0
          ? await sendAsVisitor(chatty.token, [file(`f-${index}.png`, png(64))])
          : await app.inject({
              method: 'POST',
              url: '/api/v1/chat/conversation/messages',
              headers: { 'x-chat-token': chatty.token },
              payload: { body: `Line ${index}` },
            });
      expect(written.statusCode, written.body).toBe(201);
    }
    const limited = await sendAsVisitor(chatty.token, [file('one-more.png', png(10 * 1024 * 1024))]);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses a closed or full conversation, and a message or file over its limit, before it reads the file', async () => {
    // Each refusal answers an upload over 10 MB with its own reason, not 413: the body was never read.
    const large = () => [file('large.png', png(10 * 1024 * 1024))];
    const closed = await openConversation();
    const closing = await app.inject({
      method: 'POST',
      url: `/api/v1/staff/chat/conversations/${closed.conversation.id}/close`,
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(closing.statusCode, closing.body).toBe(200);
    const toClosed = await sendAsVisitor(closed.token, large());
    expect(toClosed.statusCode).toBe(409);
    expect(toClosed.json().error.message).toBe('This conversation is closed; start a new one to write again');
    const staffToClosed = await sendAsStaff(closed.conversation.id, large());
    expect(staffToClosed.statusCode).toBe(409);
    expect(staffToClosed.json().error.message).toBe('This conversation is closed');

    // Twenty files an hour from one network, across its conversations; another network is not held back.
    const network = '2001:db8:feed:1::';
    const first = await openConversation();
    const second = await openConversation();
    for (let index = 0; index < 20; index += 1) {
      const { token } = index < 10 ? first : second;
      const sent = await sendAsVisitor(token, [file(`scan-${index}.png`, png(64))], `${network}${index + 1}`);
      expect(sent.statusCode, sent.body).toBe(201);
    }
    const third = await openConversation();
    const over = await sendAsVisitor(third.token, large(), `${network}ffff`);
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many files from this network. Please try again in 60 minutes.',
    });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await sendAsVisitor(third.token, [file('scan.png', png(64))], '2001:db8:beef:1::1');
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    const text = await app.inject({
      method: 'POST',
      url: '/api/v1/chat/conversation/messages',
      remoteAddress: `${network}1`,
      headers: { 'x-chat-token': first.token },
      payload: { body: 'Text still goes through' },
    });
    expect(text.statusCode, text.body).toBe(201);
  });
});
