import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

export function renderKycRejectedEmail(input: { to: string; reason: string; kycUrl: string }): MailMessage {
  const content: EmailContent = {
    heading: 'Your verification was not approved',
    paragraphs: [
      `Our compliance team reviewed your verification request on ${productName} and could not approve it.`,
      `Reason: ${input.reason}`,
      'You can correct the details or documents and submit a new request.',
    ],
    action: { label: 'Submit a new request', url: input.kycUrl },
    footnote: 'If you did not ask to be verified, contact our compliance team.',
  };
  return {
    to: input.to,
    subject: `Your ${productName} verification was not approved`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
