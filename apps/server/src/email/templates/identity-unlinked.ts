import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

/** To the owner of an account whose Google sign-in was just removed (after a fresh reauthentication). */
export function renderIdentityUnlinkedEmail(input: {
  to: string;
  googleEmail: string;
  securityUrl: string;
}): MailMessage {
  const content: EmailContent = {
    heading: 'Google sign-in was removed from your account',
    paragraphs: [
      `The Google account ${input.googleEmail} can no longer sign in to your ${productName} account ${input.to}.`,
      'It was removed from the account security settings by a session that had just confirmed your password.',
    ],
    action: { label: 'Review your account security', url: input.securityUrl },
    footnote:
      'If this was not you, your password is known to someone else: reset it at once and contact support.',
  };
  return {
    to: input.to,
    subject: `Google sign-in was removed from your ${productName} account`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
