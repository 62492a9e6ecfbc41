import type { RateLimitDecision } from '../plugins/rate-limit/rate-limiter.js';
import type { AuthDeps } from './auth-deps.js';
import { AuthError } from './auth-error.js';
import { networkOfAddress } from './network-of-address.js';
import type { BackOffRule } from './rate-limits.js';

/** An attempt let through the throttle; its failure counts stay unless the password was right. */
export interface ThrottledAttempt {
  succeeded(): Promise<void>;
}

export const tooManyFailures = (retryAfterSeconds: number) =>
  new AuthError(
    429,
    'over_request_rate_limit',
    'Too many failed sign-in attempts for this account. Sign in on a device you have used before, or reset your password.',
    { retryAfterSeconds },
  );

/**
 * Holds a password sign-in back before its password is checked (ADR 012). Each attempt is counted
 * as a failure up front — so attempts arriving at once see each other — and taken back if it
 * succeeds. A known device is judged on its own failures only; everyone else on the account's and
 * the network's, and refused once the account's limit is reached. The wait is the same for a
 * right and a wrong password, so it tells nothing. The bench's own accounts
 * (BENCH_UNTHROTTLED_SIGN_IN_EMAILS, refused in production) are not counted at all.
 */
export async function throttleSignIn(
  deps: Pick<AuthDeps, 'rateLimiter' | 'rateLimits' | 'sleep' | 'config'>,
  attempt: { email: string; address: string; knownDeviceId: string | undefined },
): Promise<ThrottledAttempt> {
  if (deps.config.auth.unthrottledSignInEmails.has(attempt.email.toLowerCase())) return unthrottled;
  const rules = deps.rateLimits;
  if (attempt.knownDeviceId) {
    const deviceKey = `auth:signin:failures:device:${attempt.knownDeviceId}`;
    const device = await countFailure(deps, deviceKey, rules.signInFailuresPerKnownDevice);
    if (device.allowed) {
      await deps.sleep(backOffDelayMs(rules.signInFailuresPerKnownDevice, device.count - 1));
      return { succeeded: () => deps.rateLimiter.refund(deviceKey) };
    }
    await deps.rateLimiter.refund(deviceKey);
  }

  const accountKey = `auth:signin:failures:account:${attempt.email}`;
  const networkKey = `auth:signin:failures:network:${networkOfAddress(attempt.address)}`;
  const [account, network] = await Promise.all([
    countFailure(deps, accountKey, rules.signInFailuresPerAccount),
    countFailure(deps, networkKey, rules.signInFailuresPerNetwork),
  ]);
  const refund = async () => {
    await Promise.all([deps.rateLimiter.refund(accountKey), deps.rateLimiter.refund(networkKey)]);
  };
  if (!account.allowed) {
    // Refused before any password is checked: not a failure.
    await refund();
    throw tooManyFailures(account.retryAfterSeconds);
  }
  await deps.sleep(
    Math.max(
      backOffDelayMs(rules.signInFailuresPerAccount, account.count - 1),
      backOffDelayMs(rules.signInFailuresPerNetwork, network.count - 1),
    ),
  );
  return { succeeded: refund };
}

const unthrottled: ThrottledAttempt = { succeeded: async () => {} };

/** The wait before an attempt after `failures` failures in the window. */
export function backOffDelayMs(rule: BackOffRule, failures: number): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** (failures - rule.freeFailures));
}

function countFailure(
  deps: Pick<AuthDeps, 'rateLimiter'>,
  key: string,
  rule: BackOffRule,
): Promise<RateLimitDecision> {
  return deps.rateLimiter.consume(key, rule.limit ?? Number.MAX_SAFE_INTEGER, rule.windowSeconds);
}
