import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

export function renderConfirmSignupEmail(input: { to: string; link: string; code: string }): MailMessage {
  const content: EmailContent = {
    heading: 'Confirm your e-mail address',
    paragraphs: [
      `Welcome to ${productName}. Confirm that ${input.to} is your address to finish creating your account.`,
    ],
    action: { label: 'Confirm e-mail address', url: input.link },
    code: input.code,
    footnote: 'If you did not sign up, ignore this message: no account is activated without this link.',
  };
  return {
    to: input.to,
    subject: `Confirm your ${productName} account`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
