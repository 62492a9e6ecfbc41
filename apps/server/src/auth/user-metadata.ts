import { singleLineText } from '@covenant/domain';
import { z } from 'zod';

const optionalName = singleLineText()
  .max(100)
  .transform((value) => value || undefined)
  .optional();

export const usernamePattern = /^[A-Za-z0-9_.-]{3,30}$/;

/**
 * The user metadata the product knows (spec: first_name, last_name, username), all optional; an
 * empty string counts as not given. Other keys are dropped: metadata travels inside every token.
 */
export const userMetadataSchema = z.object({
  first_name: optionalName,
  last_name: optionalName,
  username: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(
      z
        .string()
        .regex(usernamePattern, 'Username must be 3 to 30 letters, digits, dots, hyphens or underscores')
        .optional(),
    )
    .optional(),
});

export type UserMetadata = z.infer<typeof userMetadataSchema>;

/**
 * `stored` with `changes` applied: a key sent with a value sets it, a key sent empty removes it,
 * keys not sent stay as they are.
 */
export function mergeMetadata(
  stored: Record<string, unknown>,
  changes: UserMetadata,
): Record<string, unknown> {
  const merged = { ...stored };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The metadata object to store: only the keys that carry a value. */
export function compactMetadata(metadata: UserMetadata): Record<string, string> {
  return Object.fromEntries(
    Object.entries(metadata).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
