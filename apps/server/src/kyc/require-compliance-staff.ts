import { AppError } from '@covenant/domain';
import type { Principal } from '../api/principal.js';

/**
 * KYC review is for compliance officers: 401 without a caller, 403 for anyone else. API keys carry
 * no roles, so only a signed-in compliance session gets through.
 */
export function requireComplianceStaff(principal: Principal | null): Principal {
  if (!principal) throw new AppError('UNAUTHORIZED', 'This endpoint requires a Bearer token');
  if (!principal.roles.includes('compliance')) {
    throw new AppError('FORBIDDEN', 'KYC review is open to compliance staff only');
  }
  return principal;
}
