import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

const purposes = {
  'sign-in': {
    subject: `Your ${productName} sign-in code`,
    heading: 'Your sign-in code',
    paragraph: `Enter this code to sign in to ${productName}. It works once and expires within an hour.`,
  },
  reauthentication: {
    subject: `Your ${productName} confirmation code`,
    heading: 'Confirm it is you',
    paragraph: `Enter this code to confirm a change to your ${productName} account. It expires within 10 minutes.`,
  },
} as const;

export function renderOneTimeCodeEmail(input: {
  to: string;
  code: string;
  purpose: keyof typeof purposes;
}): MailMessage {
  const purpose = purposes[input.purpose];
  const content: EmailContent = {
    heading: purpose.heading,
    paragraphs: [purpose.paragraph],
    code: input.code,
    footnote: 'If you did not ask for this code, ignore this message. Never share the code with anyone.',
  };
  return { to: input.to, subject: purpose.subject, text: renderText(content), html: renderHtml(content) };
}
