import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

/**
 * To the owner of an address someone tried to sign up with again: the sign-up answered as if the
 * account were new (so nobody learns which addresses have accounts), and this says what happened.
 */
export function renderSignUpAttemptEmail(input: {
  to: string;
  signInUrl: string;
  resetLink: string;
}): MailMessage {
  const content: EmailContent = {
    heading: 'Someone tried to create an account with your address',
    paragraphs: [
      `Someone tried to create a ${productName} account for ${input.to}, but this address already has one.`,
      'If it was you, sign in or reset your password. The reset link works once and expires within an hour.',
    ],
    action: { label: 'Sign in', url: input.signInUrl },
    otherAction: { label: 'Reset your password', url: input.resetLink },
    footnote: 'If it was not you, ignore this message: your account and your password stay as they are.',
  };
  return {
    to: input.to,
    subject: `Someone tried to create a ${productName} account with your address`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
