import { describeResponseTarget, type SupportPriority, supportPriorityLabels } from '@covenant/domain';
import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

export interface SupportConfirmationInput {
  to: string;
  /** The sender's first name when the form asked for it. */
  name: string | undefined;
  reference: string;
  what: 'message' | 'ticket';
  /** The topic (contact form) or the ticket's own subject line. */
  subject: string;
  priority: SupportPriority;
  /** The text as we received it, so the sender has a copy. */
  body: string;
}

export function renderSupportConfirmationEmail(input: SupportConfirmationInput): MailMessage {
  const content: EmailContent = {
    heading: input.what === 'message' ? 'We received your message' : 'We received your support ticket',
    paragraphs: [
      `${input.name ? `Hello ${input.name}, thank` : 'Thank'} you for contacting ${productName} support. Your reference is ${input.reference}; please quote it if you write to us about this ${input.what}.`,
      `Priority: ${supportPriorityLabels[input.priority]}. We aim to answer ${describeResponseTarget(input.priority)}. Support hours: Mon-Fri 9-18 UTC, Sat 10-16 UTC, Sun emergency only.`,
      `Subject: ${input.subject}`,
      `What you wrote: ${input.body}`,
    ],
    footnote: `You receive this because this address was entered in a ${productName} support form. If that was not you, ignore this message.`,
  };
  return {
    to: input.to,
    subject: `[${input.reference}] ${input.what === 'message' ? 'We received your message' : 'Support ticket received'}`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
