import { createHmac } from 'node:crypto';

/**
 * The `Covenant-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Receivers recompute v1 over the exact bytes they received and reject old timestamps (replays).
 */
export function signWebhook(secret: string, timestampSeconds: number, rawBody: string): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}
