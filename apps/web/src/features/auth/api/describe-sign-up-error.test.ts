import { describe, expect, it } from 'vitest';
import { describeSignUpError } from './describe-sign-up-error.js';

const alreadyRegistered = 'This email is already registered. Please sign in instead.';
const invalidEmail = 'Please enter a valid email address.';
const weakPassword = 'Password is too weak. Please choose a stronger password.';
const otherwise = 'An error occurred during registration.';

describe('describeSignUpError', () => {
  it.each([
    [{ message: 'User already registered', code: 'user_already_exists' }, alreadyRegistered],
    [{ message: 'User already registered' }, alreadyRegistered],
    [{ message: 'Email ALREADY REGISTERED here' }, alreadyRegistered],
    [{ message: 'Some other wording', code: 'user_already_exists' }, alreadyRegistered],
    [{ message: 'Invalid email' }, invalidEmail],
    [{ message: 'invalid EMAIL address given' }, invalidEmail],
    [
      { message: 'Unable to validate email address: invalid format', code: 'email_address_invalid' },
      invalidEmail,
    ],
    [{ message: 'Weak password' }, weakPassword],
    [{ message: 'Password should be at least 6 characters.', code: 'weak_password' }, weakPassword],
    [{ message: 'Password is known to be weak and easy to guess', code: 'weak_password' }, weakPassword],
    [{ message: 'Database error saving new user', code: 'unexpected_failure' }, otherwise],
    [{ message: 'Unable to validate email address: invalid format', code: 'validation_failed' }, otherwise],
    [{ message: '' }, otherwise],
  ])('maps %o', (failure, expected) => {
    expect(describeSignUpError(failure)).toBe(expected);
  });

  it('checks the phrases in the spec order when several appear', () => {
    expect(describeSignUpError({ message: 'already registered; weak password' })).toBe(alreadyRegistered);
    expect(describeSignUpError({ message: 'weak password or invalid email' })).toBe(invalidEmail);
  });
});
