import { type ContactMessage, contactTopicLabels } from '@covenant/domain';
import { enforceSupportRateLimits } from './enforce-support-rate-limits.js';
import { mayEchoToAddress } from './may-echo-to-address.js';
import { recordSupportMessage } from './record-support-message.js';
import { sendSupportConfirmation } from './send-support-confirmation.js';
import type { SupportDeps } from './support-deps.js';
import { type SupportReceipt, supportReceiptOf } from './support-receipt.js';

/** The contact form (spec §2, /contact): rate-limited, stored with a reference, confirmed by e-mail. */
export async function submitContactMessage(
  deps: SupportDeps,
  input: { message: ContactMessage; ip: string; userId: string | undefined },
): Promise<SupportReceipt> {
  const { message } = input;
  await enforceSupportRateLimits(deps, { ip: input.ip, email: message.email });
  const row = await recordSupportMessage(deps, {
    kind: 'contact',
    priority: message.priority,
    email: message.email,
    firstName: message.first_name,
    lastName: message.last_name,
    phone: message.phone || null,
    topic: message.subject,
    body: message.message,
    userId: input.userId ?? null,
  });
  const echo = await mayEchoToAddress(deps, { userId: input.userId, email: row.email });
  const sent = await sendSupportConfirmation(deps, {
    to: row.email,
    reference: row.reference,
    what: 'message',
    topic: contactTopicLabels[message.subject],
    priority: row.priority,
    echo: echo ? { name: message.first_name, body: row.body } : null,
  });
  return supportReceiptOf(row, sent);
}
