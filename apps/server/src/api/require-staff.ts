import type { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import type { Principal } from './principal.js';

/**
 * Every staff route goes through here: 401 without a caller, 403 FORBIDDEN for a caller without one
 * of `roles` (traders, API keys), and 403 for a staff member whose session has not passed a second
 * factor (aal2), with `details.required_aal` so the console can ask for a TOTP code.
 */
export function requireStaff(
  principal: Principal | null,
  roles: readonly schema.UserRole[],
  what: string,
): Principal {
  if (!principal) throw new AppError('UNAUTHORIZED', 'This endpoint requires a Bearer token');
  if (!roles.some((role) => principal.roles.includes(role))) {
    throw new AppError('FORBIDDEN', `${what} is open to ${roles.join(' or ')} staff only`);
  }
  if (principal.aal !== 'aal2') {
    throw new AppError('FORBIDDEN', 'Staff actions need a session verified with a second factor', {
      required_aal: 'aal2',
    });
  }
  return principal;
}
