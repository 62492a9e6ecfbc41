import { z } from 'zod';

// Response schemas of /auth/v1: GoTrue's shapes, as far as `@supabase/auth-js` reads them.
// Serialising through them drops anything a handler did not mean to send.

const timestamp = z.string().optional();

export const factorSchema = z.object({
  id: z.string(),
  friendly_name: z.string().optional(),
  factor_type: z.literal('totp'),
  status: z.enum(['verified', 'unverified']),
  created_at: z.string(),
  updated_at: z.string(),
  last_challenged_at: timestamp,
});

export const userSchema = z.object({
  id: z.string(),
  aud: z.literal('authenticated'),
  role: z.literal('authenticated'),
  email: z.string(),
  email_confirmed_at: timestamp,
  confirmed_at: timestamp,
  phone: z.string(),
  confirmation_sent_at: timestamp,
  recovery_sent_at: timestamp,
  new_email: z.string().optional(),
  email_change_sent_at: timestamp,
  last_sign_in_at: timestamp,
  app_metadata: z.object({
    provider: z.enum(['email', 'google']),
    providers: z.array(z.enum(['email', 'google'])),
    roles: z.array(z.string()).optional(),
  }),
  user_metadata: z.record(z.string(), z.unknown()),
  identities: z.array(
    z.object({
      identity_id: z.string(),
      id: z.string(),
      user_id: z.string(),
      identity_data: z.record(z.string(), z.unknown()),
      provider: z.enum(['email', 'google']),
      email: z.string(),
      last_sign_in_at: timestamp,
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  factors: z.array(factorSchema).optional(),
  created_at: z.string(),
  updated_at: z.string(),
  is_anonymous: z.literal(false),
});

export const sessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number(),
  expires_at: z.number(),
  refresh_token: z.string(),
  user: userSchema,
});

/** The answer of endpoints that only confirm they did their work (GoTrue sends `{}`). */
export const emptySchema = z.object({});

export const redirectQuerySchema = z.object({ redirect_to: z.string().max(2048).optional() });
