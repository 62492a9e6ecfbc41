import type { SupportTicket } from '@covenant/domain';
import { enforceSupportRateLimits } from './enforce-support-rate-limits.js';
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
  const sent = await sendSupportConfirmation(deps, {
    to: row.email,
    name: undefined,
    reference: row.reference,
    what: 'ticket',
    subject: ticket.subject,
    priority: row.priority,
    body: row.body,
  });
  return supportReceiptOf(row, sent);
}
