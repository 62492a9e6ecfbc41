import { AppError } from '@covenant/domain';
import type { Principal } from '../api/principal.js';
import { requireStaff } from '../api/require-staff.js';

/**
 * KYC review is for compliance officers whose session passed a second factor: 401 without a caller,
 * 403 for anyone else, and 403 with `details.required_aal` for compliance staff at aal1. API keys
 * carry no roles, so only a signed-in compliance session gets through.
 */
export function requireComplianceStaff(principal: Principal | null): Principal {
  if (principal && !principal.roles.includes('compliance')) {
    throw new AppError('FORBIDDEN', 'KYC review is open to compliance staff only');
  }
  return requireStaff(principal, ['compliance'], 'KYC review');
}
