import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer, MailMessage } from '../email/mailer.js';
import { createLogger } from '../plugins/create-logger.js';
import { scheduleNotificationEmails } from './schedule-notification-emails.js';
import { messageEmailIntervalMs, sendNotificationEmails } from './send-notification-emails.js';

let database: Database;
let buyerId: string;
let sellerId: string;
let dealId: string;
let sent: MailMessage[];
let failing: boolean;
let now: Date;

/** Collects what would be sent; refuses while `failing`. Slow enough to overlap concurrent passes. */
const mailer: Mailer = {
  send: async (message) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (failing) throw new Error('SMTP server unavailable');
    sent.push(message);
  },
  close: async () => {},
};
const deps = () => ({ database, mailer, publicUrl: 'https://covenant.example', now: () => now });

async function createUser(name: string): Promise<string> {
  const [user] = await database.db
    .insert(schema.users)
    .values({ email: `${name}@example.com`, emailConfirmedAt: new Date() })
    .returning();
  return user!.id;
}

function notify(userId: string, kind: string, title: string, body: string, createdAt = now) {
  return database.db.insert(schema.notifications).values({ userId, dealId, kind, title, body, createdAt });
}

beforeAll(async () => {
  database = await createTestDatabase();
  buyerId = await createUser('mail-buyer');
  sellerId = await createUser('mail-seller');
  const [deal] = await database.db
    .insert(schema.deals)
    .values({
      buyerId,
      sellerId,
      assetChain: 'BTC',
      assetSymbol: 'BTC',
      assetAmount: '1000',
      stableChain: 'ETH',
      stableSymbol: 'USDC',
      stableAmount: '1000000',
    })
    .returning();
  dealId = deal!.id;
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.delete(schema.notifications);
  sent = [];
  failing = false;
  now = new Date('2030-01-01T12:00:00Z');
});

describe('sendNotificationEmails', () => {
  it('e-mails each transition once, to its recipient, with a link to the deal', async () => {
    await notify(sellerId, 'terms_proposed', 'New terms proposed (version 3)', 'Review the new terms.');
    await notify(
      buyerId,
      'cancelled',
      'Deal cancelled',
      'The deal was cancelled. Reason: too slow',
      new Date(now.getTime() + 1),
    );
    expect(await sendNotificationEmails(deps())).toBe(2);
    expect(sent.map((message) => [message.to, message.subject])).toEqual([
      ['mail-seller@example.com', 'New terms proposed (version 3)'],
      ['mail-buyer@example.com', 'Deal cancelled'],
    ]);
    expect(sent[1]!.text).toContain('The deal was cancelled. Reason: too slow');
    expect(sent[1]!.text).toContain(`https://covenant.example/trading/deals/${dealId}`);
    expect(sent[1]!.html).toContain(`https://covenant.example/trading/deals/${dealId}`);

    expect(await sendNotificationEmails(deps())).toBe(0);
    expect(sent).toHaveLength(2);
    const unsent = await database.db
      .select()
      .from(schema.notifications)
      .where(isNull(schema.notifications.emailedAt));
    expect(unsent).toEqual([]);
  });

  it('keeps a notification whose e-mail failed, and sends it on a later pass', async () => {
    await notify(sellerId, 'cis_approved', 'Your CIS was approved', 'Approved.');
    failing = true;
    const failures: string[][] = [];
    expect(
      await sendNotificationEmails({ ...deps(), onSendFailed: (_error, ids) => failures.push(ids) }),
    ).toBe(0);
    expect(failures).toHaveLength(1);
    failing = false;
    expect(await sendNotificationEmails(deps())).toBe(1);
    expect(sent.map((message) => message.subject)).toEqual(['Your CIS was approved']);
  });

  it('sends at most one "new messages" e-mail per deal and recipient in 15 minutes, batching the rest', async () => {
    await notify(sellerId, 'message', 'New message', 'alice: one');
    await notify(sellerId, 'message', 'New message', 'alice: two');
    expect(await sendNotificationEmails(deps())).toBe(1);
    expect(sent[0]).toMatchObject({ to: 'mail-seller@example.com', subject: '2 new messages' });
    expect(sent[0]!.text).toContain('alice: one');
    expect(sent[0]!.text).toContain('alice: two');

    // Five minutes later: a message waits; a transition does not.
    now = new Date(now.getTime() + 5 * 60 * 1000);
    await notify(sellerId, 'message', 'New message', 'alice: three');
    await notify(sellerId, 'cancelled', 'Deal cancelled', 'The deal was cancelled.');
    expect(await sendNotificationEmails(deps())).toBe(1);
    expect(sent.map((message) => message.subject)).toEqual(['2 new messages', 'Deal cancelled']);

    // Once 15 minutes have passed since the last message e-mail, the waiting one goes out.
    now = new Date(now.getTime() + messageEmailIntervalMs - 5 * 60 * 1000 + 1000);
    expect(await sendNotificationEmails(deps())).toBe(1);
    expect(sent[2]).toMatchObject({ subject: 'New message' });
    expect(sent[2]!.text).toContain('alice: three');
  });

  it('works through a backlog larger than one batch', async () => {
    await database.db.insert(schema.notifications).values(
      Array.from({ length: 120 }, (_, i) => ({
        userId: buyerId,
        dealId,
        kind: 'terms_proposed',
        title: `New terms proposed (version ${i + 2})`,
        body: 'Review the new terms.',
        createdAt: new Date(now.getTime() + i),
      })),
    );
    expect(await sendNotificationEmails(deps())).toBe(120);
    expect(new Set(sent.map((message) => message.subject)).size).toBe(120);
  });

  it('sends each e-mail once when passes overlap', async () => {
    const addBacklog = (from: number) =>
      database.db.insert(schema.notifications).values(
        Array.from({ length: 30 }, (_, i) => ({
          userId: sellerId,
          dealId,
          kind: 'terms_proposed',
          title: `New terms proposed (version ${from + i})`,
          body: 'Review the new terms.',
          createdAt: new Date(now.getTime() + i),
        })),
      );
    // In one process the schedule runs one pass at a time, however often it is woken.
    await addBacklog(2);
    const schedule = scheduleNotificationEmails({
      ...deps(),
      hub: { onAnyEvent: () => () => {} },
      logger: createLogger('silent'),
    });
    await Promise.all([schedule.runNow(), schedule.runNow(), schedule.runNow()]);
    await schedule.stop();
    expect(sent).toHaveLength(30);
    if (database.engine === 'postgres') {
      // Replicas: passes of separate processes skip the rows another one holds.
      await addBacklog(100);
      const counts = await Promise.all([sendNotificationEmails(deps()), sendNotificationEmails(deps())]);
      expect(counts[0]! + counts[1]!).toBe(30);
      expect(sent).toHaveLength(60);
    }
    const unsent = await database.db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, sellerId), isNull(schema.notifications.emailedAt)));
    expect(unsent).toEqual([]);
  });
});
