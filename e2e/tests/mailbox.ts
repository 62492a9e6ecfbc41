import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';

interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
}

/** Waits for the newest message to `address` in the dev mailbox and returns it. */
export async function waitForMail(
  request: APIRequestContext,
  address: string,
  subject: RegExp,
): Promise<MailboxMessage> {
  let found: MailboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get('/dev/mailbox.json');
        const body = (await response.json()) as { messages: MailboxMessage[] };
        found = body.messages.find(
          (message) => message.to.includes(address) && subject.test(message.subject),
        );
        return found !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** The first link in a message's plain-text body that points at the given path. */
export function linkIn(message: MailboxMessage, path: string): string {
  const link = message.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname === path);
  if (!link) throw new Error(`No ${path} link in the message "${message.subject}"`);
  return link;
}
