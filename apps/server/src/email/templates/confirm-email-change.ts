import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

export function renderConfirmEmailChangeEmail(input: {
  to: string;
  currentEmail: string;
  link: string;
  code: string;
}): MailMessage {
  const content: EmailContent = {
    heading: 'Confirm your new e-mail address',
    paragraphs: [
      `The ${productName} account of ${input.currentEmail} is to use ${input.to} from now on.`,
      'Confirm the change with the link below; until then the account keeps its current address.',
    ],
    action: { label: 'Confirm new address', url: input.link },
    code: input.code,
    footnote: 'If you did not ask for this, ignore this message and nothing changes.',
  };
  return {
    to: input.to,
    subject: `Confirm your new ${productName} e-mail address`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
