import { z } from 'zod';
import { AuthError } from './auth-error.js';

/** An e-mail address as the auth service keeps it: trimmed and lower-cased, like GoTrue does. */
export const emailAddressSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());

/** The address in its stored form, or GoTrue's `email_address_invalid` (the web app maps that code). */
export function parseEmailAddress(text: string): string {
  const parsed = emailAddressSchema.safeParse(text);
  if (!parsed.success) {
    throw new AuthError(400, 'email_address_invalid', 'Unable to validate email address: invalid format');
  }
  return parsed.data;
}
