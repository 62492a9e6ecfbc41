import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.js';

/** Sends over SMTP (SMTP_URL, e.g. smtps://user:pass@mail.example.com; add ?pool=true to reuse connections). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    send: async (message) => {
      await transport.sendMail({ from, ...message });
    },
    close: async () => {
      transport.close();
    },
  };
}
