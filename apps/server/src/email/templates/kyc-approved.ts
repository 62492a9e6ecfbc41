import { formatUsd, type TradingTier, tierLabels } from '@covenant/domain';
import type { MailMessage } from '../mailer.js';
import { type EmailContent, productName, renderHtml, renderText } from './layout.js';

export function renderKycApprovedEmail(input: {
  to: string;
  tier: TradingTier;
  limitUsd: bigint;
  tradingUrl: string;
}): MailMessage {
  const content: EmailContent = {
    heading: 'Your verification is approved',
    paragraphs: [
      `Your identity verification on ${productName} is complete. Your account is verified at the ${tierLabels[input.tier]} tier, with a limit of $${formatUsd(input.limitUsd)} per transaction.`,
      'You can now create trades with verified partners.',
    ],
    action: { label: 'Start trading', url: input.tradingUrl },
    footnote: 'If you did not ask to be verified, contact our compliance team.',
  };
  return {
    to: input.to,
    subject: `Your ${productName} verification is approved`,
    text: renderText(content),
    html: renderHtml(content),
  };
}
