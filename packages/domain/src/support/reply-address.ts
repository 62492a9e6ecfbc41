import { z } from 'zod';

/** The e-mail address support answers to, as the contact form and the ticket form both ask for it. */
export const replyAddressSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Use at most 254 characters')
  .pipe(z.email('Enter a valid email address'));
