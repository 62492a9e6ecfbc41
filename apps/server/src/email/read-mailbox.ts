import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ParsedEmail, parseEmail } from './parse-email.js';

export interface MailboxMessage extends ParsedEmail {
  id: string;
}

const messageId = /^[0-9]+-[0-9a-f]+$/;

/** Every message in the mailbox folder, newest first; an empty list when nothing was sent yet. */
export async function listMailbox(dir: string): Promise<MailboxMessage[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const ids = names
    .filter((name) => name.endsWith('.eml'))
    .map((name) => name.slice(0, -'.eml'.length))
    .filter((id) => messageId.test(id))
    .sort(byTimeThenName)
    .reverse();
  return Promise.all(ids.map(async (id) => readMessage(dir, id)));
}

/** One message by id, or undefined when there is none (ids are checked, so no path escapes `dir`). */
export async function readMailboxMessage(dir: string, id: string): Promise<MailboxMessage | undefined> {
  if (!messageId.test(id)) return undefined;
  return readMessage(dir, id).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

async function readMessage(dir: string, id: string): Promise<MailboxMessage> {
  return { id, ...parseEmail(await readFile(join(dir, `${id}.eml`))) };
}

function byTimeThenName(a: string, b: string): number {
  const [timeA = '', restA = ''] = a.split('-');
  const [timeB = '', restB = ''] = b.split('-');
  return Number(timeA) - Number(timeB) || restA.localeCompare(restB);
}
