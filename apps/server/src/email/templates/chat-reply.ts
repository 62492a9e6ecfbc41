import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

/** A staff answer to a live chat that was opened while no one was online: it goes by e-mail. */
export function renderChatReplyEmail(input: {
  to: string;
  question: string;
  reply: string;
  /** The name of a file sent with the answer: named here, downloaded in the chat. */
  attachment?: string | undefined;
}): MailMessage {
  const question = input.question.length > 300 ? `${input.question.slice(0, 300)}…` : input.question;
  const content: EmailContent = {
    heading: 'Our answer to your chat message',
    paragraphs: [
      ...input.reply
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.trim())
        .filter(Boolean),
      ...(input.attachment
        ? [
            `We attached a file to this answer: “${input.attachment}”. Open the chat on our website in the browser you wrote from to download it; files are not sent by e-mail.`,
          ]
        : []),
      `You wrote: “${question}”`,
    ],
    footnote: `${productName} support. No one was online when you wrote in the live chat, so we answer by e-mail; reply to this address or open the chat again.`,
  };
  return {
    to: input.to,
    subject: `Re: your live chat with ${productName} support`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
