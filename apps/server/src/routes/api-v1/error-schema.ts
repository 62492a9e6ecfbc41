import { z } from 'zod';

/** The API's error object (spec §8), for documenting responses. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).nullable(),
    timestamp: z.string(),
  }),
});
