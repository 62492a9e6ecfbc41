import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

export function renderResetPasswordEmail(input: { to: string; link: string; code: string }): MailMessage {
  const content: EmailContent = {
    heading: 'Reset your password',
    paragraphs: [
      `Someone asked to reset the password of the ${productName} account for ${input.to}.`,
      'Follow the link to choose a new password. It works once and expires within an hour.',
    ],
    action: { label: 'Choose a new password', url: input.link },
    code: input.code,
    footnote: 'If you did not ask for this, ignore this message: your password stays as it is.',
  };
  return {
    to: input.to,
    subject: `Reset your ${productName} password`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
