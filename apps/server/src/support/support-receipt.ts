import type { schema } from '@covenant/db';
import { responseTargetHours, type SupportPriority } from '@covenant/domain';

/** What a sender is told once a message or ticket is stored. */
export interface SupportReceipt {
  reference: string;
  priority: SupportPriority;
  response_target_hours: number;
  /** False when the message is stored but the confirmation e-mail could not be sent. */
  confirmation_sent: boolean;
}

export function supportReceiptOf(
  row: typeof schema.supportMessages.$inferSelect,
  confirmationSent: boolean,
): SupportReceipt {
  return {
    reference: row.reference,
    priority: row.priority,
    response_target_hours: responseTargetHours[row.priority],
    confirmation_sent: confirmationSent,
  };
}
