import { describeResponseTarget, type SupportPriority, supportPriorityLabels } from '@covenant/domain';
import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

export interface SupportConfirmationInput {
  to: string;
  reference: string;
  what: 'message' | 'ticket';
  priority: SupportPriority;
  /** The form's topic or category, one of our own labels. */
  topic: string;
  /**
   * What the sender typed (their first name, a ticket's subject line, the text), so they have a copy.
   * Only for the address of the signed-in account that sent it: anyone can type any address into a
   * support form, and the confirmation must not carry a stranger's words to it. `null` otherwise.
   */
  echo: { name?: string; subject?: string; body: string } | null;
}

export function renderSupportConfirmationEmail(input: SupportConfirmationInput): MailMessage {
  const { echo } = input;
  const content: EmailContent = {
    heading: input.what === 'message' ? 'We received your message' : 'We received your support ticket',
    paragraphs: [
      `${echo?.name ? `Hello ${echo.name}, thank` : 'Thank'} you for contacting ${productName} support. Your reference is ${input.reference}; please quote it if you write to us about this ${input.what}.`,
      `Priority: ${supportPriorityLabels[input.priority]}. We aim to answer ${describeResponseTarget(input.priority)}. Support hours: Mon-Fri 9-18 UTC, Sat 10-16 UTC, Sun emergency only.`,
      `Topic: ${input.topic}`,
      ...(echo
        ? [...(echo.subject ? [`Subject: ${echo.subject}`] : []), `What you wrote: ${echo.body}`]
        : [
            `This e-mail does not repeat what the form said: anyone can enter an address in it. Sign in with this address before you write to us to get a copy of your ${input.what}.`,
          ]),
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
