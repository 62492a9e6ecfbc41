import { AppError } from '@covenant/domain';
import { networkOfAddress } from '../auth/network-of-address.js';
import type { SupportDeps } from './support-deps.js';

export interface SupportRateLimits {
  perIp: { limit: number; windowSeconds: number };
  perEmail: { limit: number; windowSeconds: number };
}

/**
 * Contact messages and tickets together: enough for a visitor with a real problem and a follow-up,
 * too few to flood the inbox or to use our confirmations to mail-bomb someone else's address.
 */
export const defaultSupportRateLimits: SupportRateLimits = {
  perIp: { limit: 10, windowSeconds: 3600 },
  perEmail: { limit: 5, windowSeconds: 3600 },
};

/** Counts one submission for the sender's IP and for the address; either over its limit → 429. */
export async function enforceSupportRateLimits(
  deps: Pick<SupportDeps, 'rateLimiter' | 'rateLimits'>,
  sender: { ip: string; email: string },
): Promise<void> {
  const checks = [
    { key: `support:ip:${networkOfAddress(sender.ip)}`, rule: deps.rateLimits.perIp, who: 'this network' },
    { key: `support:email:${sender.email}`, rule: deps.rateLimits.perEmail, who: 'this email address' },
  ];
  for (const { key, rule, who } of checks) {
    const decision = await deps.rateLimiter.consume(key, rule.limit, rule.windowSeconds);
    if (!decision.allowed) {
      const minutes = Math.ceil(decision.retryAfterSeconds / 60);
      throw new AppError(
        'RATE_LIMITED',
        `Too many messages from ${who}. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
        { retry_after_seconds: decision.retryAfterSeconds },
      );
    }
  }
}
