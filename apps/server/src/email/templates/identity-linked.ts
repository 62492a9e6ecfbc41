import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

/** To the owner of an account that a Google account was just linked to (after its password). */
export function renderIdentityLinkedEmail(input: {
  to: string;
  googleEmail: string;
  securityUrl: string;
}): MailMessage {
  const content: EmailContent = {
    heading: 'Google sign-in was added to your account',
    paragraphs: [
      `The Google account ${input.googleEmail} can now sign in to your ${productName} account ${input.to}.`,
      'It was linked right after a sign-in with your password, in the browser that came back from Google.',
    ],
    action: { label: 'Review your account security', url: input.securityUrl },
    footnote:
      'If this was not you, your password is known to someone else: reset it at once and contact support.',
  };
  return {
    to: input.to,
    subject: `Google sign-in was added to your ${productName} account`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
