import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.js';

/** Where messages go when no SMTP server is configured. */
export function mailboxDir(dataDir: string): string {
  return join(dataDir, 'mailbox');
}

/**
 * "Sends" by writing each message as an RFC 822 .eml file into `dir` (any mail client opens them;
 * the dev mailbox page lists them). File names start with the time, so they sort oldest first.
 */
export function createMailboxMailer(dir: string, from: string, clock: () => Date = () => new Date()): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    send: async (message) => {
      const built = await transport.sendMail({ from, ...message });
      const id = `${clock().getTime()}-${randomBytes(6).toString('hex')}`;
      await mkdir(dir, { recursive: true });
      // Written aside and renamed, so a reader never sees half a message.
      const partial = join(dir, `.${id}.partial`);
      await writeFile(partial, built.message as Buffer);
      await rename(partial, join(dir, `${id}.eml`));
    },
    close: async () => {
      transport.close();
    },
  };
}
