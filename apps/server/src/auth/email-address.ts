import { z } from 'zod';

/** An e-mail address as the auth service keeps it: trimmed and lower-cased, like GoTrue does. */
export const emailAddressSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: 'Unable to validate email address: invalid format' }));
