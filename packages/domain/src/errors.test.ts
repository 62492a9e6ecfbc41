import { describe, expect, it } from 'vitest';
import { AppError, isAppError } from './errors.js';

describe('AppError', () => {
  it('carries its code, message, details and the mapped HTTP status', () => {
    const error = new AppError('INSUFFICIENT_BALANCE', 'Deposit is short', {
      required: '1000000',
      available: '999999',
      chain: 'ETH',
    });
    expect(error.status).toBe(422);
    expect(error.code).toBe('INSUFFICIENT_BALANCE');
    expect(error.details).toEqual({ required: '1000000', available: '999999', chain: 'ETH' });
    expect(isAppError(error)).toBe(true);
    expect(isAppError(new Error('plain'))).toBe(false);
  });

  it.each([
    ['DEAL_NOT_ACTIVE', 409],
    ['RATE_LIMITED', 429],
    ['UNAUTHORIZED', 401],
    ['NOT_IMPLEMENTED', 501],
  ] as const)('maps %s to %i', (code, status) => {
    expect(new AppError(code, 'x').status).toBe(status);
  });
});
