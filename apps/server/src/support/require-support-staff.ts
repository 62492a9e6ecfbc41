import { AppError } from '@covenant/domain';
import type { Principal } from '../api/principal.js';
import { requireStaff } from '../api/require-staff.js';

/**
 * The support inbox is for admins whose session passed a second factor: 401 without a caller, 403
 * for anyone else, and 403 with `details.required_aal` for an admin at aal1. API keys carry no
 * roles, so only a signed-in admin session gets through.
 */
export function requireSupportStaff(principal: Principal | null): Principal {
  if (principal && !principal.roles.includes('admin')) {
    throw new AppError('FORBIDDEN', 'The support inbox is open to admins only');
  }
  return requireStaff(principal, ['admin'], 'The support inbox');
}
