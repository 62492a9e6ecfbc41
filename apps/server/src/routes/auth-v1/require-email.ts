import { AuthError } from '../../auth/auth-error.js';
import { parseEmailAddress } from '../../auth/email-address.js';

/**
 * The e-mail address of a body where GoTrue would also take a phone number (only e-mail is offered),
 * validated and normalised.
 */
export function requireEmail(body: { email?: string | undefined; phone?: string | undefined }): string {
  if (body.phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone sign-in is not enabled');
  if (!body.email) throw new AuthError(400, 'validation_failed', 'An email address is required');
  return parseEmailAddress(body.email);
}
