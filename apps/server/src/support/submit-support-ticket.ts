import { type SupportTicket, ticketCategoryLabels } from '@covenant/domain';
import { enforceSupportRateLimits } from './enforce-support-rate-limits.js';
import { mayEchoToAddress } from './may-echo-to-address.js';
import { recordSupportMessage } from './record-support-message.js';
import { sendSupportConfirmation } from './send-support-confirmation.js';
import type { SupportDeps } from './support-deps.js';
import { type SupportReceipt, supportReceiptOf } from './support-receipt.js';

/**
 * The Help Center ticket (subject, category, description). Tickets have no priority field, so they
 * get `normal`: the e-mail channel's promise of an answer within 4 hours.
 */
export async function submitSupportTicket(
  deps: SupportDeps,
  input: { ticket: SupportTicket; ip: string; userId: string | undefined },
): Promise<SupportReceipt> {
  const { ticket } = input;
  await enforceSupportRateLimits(deps, { ip: input.ip, email: ticket.email });
  const row = await recordSupportMessage(deps, {
    kind: 'ticket',
    priority: 'normal',
    email: ticket.email,
    subject: ticket.subject,
    category: ticket.category,
    body: ticket.description,
    userId: input.userId ?? null,
  });
  const echo = await mayEchoToAddress(deps, { userId: input.userId, email: row.email });
  const sent = await sendSupportConfirmation(deps, {
    to: row.email,
    reference: row.reference,
    what: 'ticket',
    topic: ticketCategoryLabels[ticket.category],
    priority: row.priority,
    echo: echo ? { subject: ticket.subject, body: row.body } : null,
  });
  return supportReceiptOf(row, sent);
}
