import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

/** A staff answer to a contact message or ticket, sent to the address it came from. */
export function renderSupportReplyEmail(input: {
  to: string;
  reference: string;
  subject: string;
  reply: string;
}): MailMessage {
  const content: EmailContent = {
    heading: `Re: ${input.subject}`,
    // Staff write in paragraphs separated by blank lines; each becomes a paragraph of the e-mail.
    paragraphs: input.reply
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter(Boolean),
    footnote: `${productName} support, about ${input.reference}. Quote this reference if you write to us again.`,
  };
  return {
    to: input.to,
    subject: `[${input.reference}] Re: ${input.subject}`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
