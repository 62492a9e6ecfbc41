import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

/**
 * To the current address of an account whose e-mail is to change: the confirmation goes to the new
 * address only, so without this the owner would not know until the account no longer answered here.
 */
export function renderEmailChangeRequestedEmail(input: {
  to: string;
  newEmail: string;
  securityUrl: string;
}): MailMessage {
  const content: EmailContent = {
    heading: 'A change of your e-mail address was asked for',
    paragraphs: [
      `Your ${productName} account ${input.to} is to use ${input.newEmail} from now on, once that address confirms it.`,
      'It was asked for from a signed-in session of your account.',
    ],
    action: { label: 'Review your account security', url: input.securityUrl },
    footnote:
      'If this was not you, someone can sign in as you: reset your password at once and contact support before the new address confirms.',
  };
  return {
    to: input.to,
    subject: `A change of your ${productName} e-mail address was asked for`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
