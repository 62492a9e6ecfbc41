import { renderSupportConfirmationEmail } from '../email/templates/support-confirmation.js';
import type { SupportDeps } from './support-deps.js';
import type { SupportReceipt } from './support-receipt.js';

/**
 * Mails the sender their reference. The message is already stored and in the inbox, so a mail
 * failure is logged and reported in the receipt rather than failing the request (a retry would only
 * file the same message twice).
 */
export async function sendSupportConfirmation(
  deps: Pick<SupportDeps, 'mailer' | 'logger'>,
  input: Parameters<typeof renderSupportConfirmationEmail>[0],
): Promise<SupportReceipt['confirmation_sent']> {
  try {
    await deps.mailer.send(renderSupportConfirmationEmail(input));
    return true;
  } catch (error) {
    deps.logger.error({ err: error, reference: input.reference }, 'support confirmation not sent');
    return false;
  }
}
