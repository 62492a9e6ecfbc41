import nodemailer, { type SendMailOptions } from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { parseEmail } from './parse-email.js';

const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });

async function build(options: SendMailOptions): Promise<Buffer> {
  const built = await transport.sendMail({ from: 'Covenant <no-reply@covenant.local>', ...options });
  return built.message as Buffer;
}

const longLink = `http://localhost:3000/auth/v1/verify?token=${'a1b2c3'.repeat(20)}&type=signup&redirect_to=http%3A%2F%2Flocalhost%3A3000%2Fauth`;

describe('parseEmail', () => {
  it.each(['quoted-printable', 'base64'] as const)(
    'reads headers, text and HTML of a %s message',
    async (textEncoding) => {
      const raw = await build({
        to: 'zoë@example.com',
        subject: 'Confirm your sign-up — Covenant ✓',
        text: `Héllo,\n\nconfirm here: ${longLink}\n`,
        html: `<p>Héllo, <a href="${longLink}">confirm</a> = done</p>`,
        textEncoding,
        date: new Date('2030-01-02T03:04:05Z'),
      });
      expect(parseEmail(raw)).toEqual({
        from: 'Covenant <no-reply@covenant.local>',
        to: 'zoë@example.com',
        subject: 'Confirm your sign-up — Covenant ✓',
        date: new Date('2030-01-02T03:04:05Z'),
        text: `Héllo,\n\nconfirm here: ${longLink}\n`,
        html: `<p>Héllo, <a href="${longLink}">confirm</a> = done</p>`,
      });
    },
  );

  it('reads a plain ASCII text-only message', async () => {
    const parsed = parseEmail(
      await build({ to: 'a@example.com', subject: 'Code', text: 'Your code is 123456' }),
    );
    expect(parsed).toMatchObject({
      to: 'a@example.com',
      subject: 'Code',
      text: 'Your code is 123456',
      html: '',
    });
  });

  it('skips attachments', async () => {
    const parsed = parseEmail(
      await build({
        to: 'a@example.com',
        subject: 'With a file',
        text: 'See the file',
        html: '<p>See the file</p>',
        attachments: [{ filename: 'notes.txt', content: 'not the body' }],
      }),
    );
    expect(parsed).toMatchObject({ text: 'See the file', html: '<p>See the file</p>' });
  });
});
