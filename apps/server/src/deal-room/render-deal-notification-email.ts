import type { MailMessage } from '../email/mailer.js';
import { type EmailContent, renderHtml, renderText } from '../email/templates/layout.js';

/** The page of a deal in the web app, for links in e-mails. */
export function dealPageUrl(publicUrl: string, dealId: string): string {
  return `${publicUrl}/trading/deals/${encodeURIComponent(dealId)}`;
}

/** The e-mail of one deal notification: its title as the subject, its text, and a link to the deal. */
export function renderDealNotificationEmail(input: {
  to: string;
  title: string;
  paragraphs: string[];
  dealUrl: string | null;
}): MailMessage {
  const content: EmailContent = {
    heading: input.title,
    paragraphs: input.paragraphs,
    ...(input.dealUrl ? { action: { label: 'Open the deal', url: input.dealUrl } } : {}),
    footnote: 'You receive this because you are a participant of this deal. The deal page shows every step.',
  };
  return { to: input.to, subject: input.title, text: renderText(content), html: renderHtml(content) };
}
