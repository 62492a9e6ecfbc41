import { AppError } from '@covenant/domain';
import type { Principal } from '../api/principal.js';

/**
 * The support inbox is for admins: 401 without a caller, 403 for anyone else. API keys carry no
 * roles, so only a signed-in admin session gets through.
 */
export function requireSupportStaff(principal: Principal | null): Principal {
  if (!principal) throw new AppError('UNAUTHORIZED', 'This endpoint requires a Bearer token');
  if (!principal.roles.includes('admin')) {
    throw new AppError('FORBIDDEN', 'The support inbox is open to admins only');
  }
  return principal;
}
