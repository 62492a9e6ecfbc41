import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { type ParsedEmail, parseEmail } from './parse-email.js';

export interface TestSmtpServer {
  /** An SMTP_URL for the server. */
  url: string;
  /** Every message received so far, oldest first. */
  messages: ParsedEmail[];
  /** Resolves with the first message (already received or still to come) that matches. */
  waitForMessage(matches: (message: ParsedEmail) => boolean, timeoutMs?: number): Promise<ParsedEmail>;
  close(): Promise<void>;
}

/** A real SMTP server on a random loopback port (no auth, no TLS) that keeps what it receives. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const messages: ParsedEmail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        messages.push(parseEmail(Buffer.concat(chunks)));
        for (const wake of waiting) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessage: (matches, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(matches);
          if (!found) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no matching e-mail within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(check);
        check();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
