import { AppError } from '@covenant/domain';
import type { ChatDeps } from './chat-deps.js';

/** Counts one action against `key`; over the rule's limit → 429 with `retry_after_seconds`. */
export async function enforceChatRateLimit(
  deps: Pick<ChatDeps, 'rateLimiter'>,
  key: string,
  rule: { limit: number; windowSeconds: number },
  what: string,
): Promise<void> {
  const decision = await deps.rateLimiter.consume(key, rule.limit, rule.windowSeconds);
  if (decision.allowed) return;
  const minutes = Math.ceil(decision.retryAfterSeconds / 60);
  throw new AppError(
    'RATE_LIMITED',
    `Too many ${what}. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    { retry_after_seconds: decision.retryAfterSeconds },
  );
}
