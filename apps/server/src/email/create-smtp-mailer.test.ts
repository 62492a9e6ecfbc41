import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from './create-smtp-mailer.js';
import type { Mailer } from './mailer.js';
import { startTestSmtpServer, type TestSmtpServer } from './start-test-smtp-server.js';

let smtp: TestSmtpServer;
let mailer: Mailer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  mailer = createSmtpMailer(smtp.url, 'Covenant <no-reply@covenant.test>');
});
afterAll(async () => {
  await mailer?.close();
  await smtp?.close();
});

describe('the SMTP mailer', () => {
  it('delivers a message with both bodies to an SMTP server', async () => {
    const link = 'http://localhost:3000/auth/v1/verify?token=t0k3n&type=recovery';
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Reset your password',
      text: `Reset it here: ${link}`,
      html: `<a href="${link}">Reset your password</a>`,
    });
    const received = await smtp.waitForMessage((message) => message.to === 'ada@example.com');
    expect(received).toMatchObject({
      from: 'Covenant <no-reply@covenant.test>',
      subject: 'Reset your password',
      text: `Reset it here: ${link}`,
      html: `<a href="${link}">Reset your password</a>`,
    });
  });

  it('fails the send when the server cannot be reached', async () => {
    const unreachable = createSmtpMailer('smtp://127.0.0.1:1', 'Covenant <no-reply@covenant.test>');
    await expect(
      unreachable.send({ to: 'ada@example.com', subject: 'x', text: 'x', html: '<p>x</p>' }),
    ).rejects.toThrow();
    await unreachable.close();
  });
});
